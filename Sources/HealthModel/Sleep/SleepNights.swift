import Foundation

/// Turns a source's sleep samples (or summaries) into one figure set per night, so two devices that saw
/// the same minutes do not count them twice. The rule, as `docs/methods.md` states it:
///
/// 1. A night belongs to the day it ends: a stretch belongs to the local day of its end plus six hours,
///    so everything that ends between 18:00 the day before and 18:00 on day D (the night, and an
///    afternoon nap) is day D's sleep.
/// 2. Samples: per night, each figure is the length of the union of its intervals over every device —
///    each stage on its own, time asleep over every asleep stage (core, deep, REM, unspecified), time in
///    bed over the in-bed samples. A minute the watch and the phone both recorded counts once. Stages are
///    each a union too, so when two devices name different stages for the same minute, the stages can add
///    up to more than the time asleep, which never counts a minute twice.
/// 3. Summaries (totals without intervals): those whose windows overlap describe the same stretch, and each
///    figure is the largest of theirs; summaries with disjoint windows (a nap) add.
public struct SleepNights: Sendable {
    private var samples: [SleepSample] = []
    private var summaries: [SleepSummary] = []

    public init() {}

    public var isEmpty: Bool { samples.isEmpty && summaries.isEmpty }

    public mutating func add(_ sample: SleepSample) {
        if sample.endMs > sample.startMs { samples.append(sample) }
    }

    public mutating func add(_ summary: SleepSummary) {
        summaries.append(summary)
    }

    /// The hours after its end at which a stretch still belongs to the day it ended on (18:00 → next day).
    public static let dayTurnsAtHour = 18

    /// The day a stretch that ends at `endMs` belongs to, in `calendar`'s time zone.
    public static func day(endingAt endMs: Int64, calendar: Calendar) -> Day {
        let shifted = Date(timeIntervalSince1970: Double(endMs) / 1000 + Double(24 - dayTurnsAtHour) * 3600)
        return Day(shifted, in: calendar)
    }

    /// The nights, in day order.
    public func nights(calendar: Calendar) -> [SleepNight] {
        var byDay: [Day: [SleepSummary]] = [:]
        for (day, daySamples) in Dictionary(grouping: samples, by: { Self.day(endingAt: $0.endMs, calendar: calendar) }) {
            byDay[day, default: []].append(Self.union(daySamples))
        }
        for summary in summaries {
            byDay[Self.day(endingAt: summary.endMs, calendar: calendar), default: []].append(summary)
        }
        let samplesByDay = Dictionary(grouping: samples, by: { Self.day(endingAt: $0.endMs, calendar: calendar) })
        let summariesByDay = Dictionary(grouping: summaries, by: { Self.day(endingAt: $0.endMs, calendar: calendar) })
        return byDay.keys.sorted().compactMap { day in
            var night = Self.combined(byDay[day]!, day: day)
            guard night.mainKind != nil else { return nil }
            let daySummaries = summariesByDay[day] ?? []
            night.startMs = ((samplesByDay[day] ?? []).map(\.startMs) + daySummaries.map(\.startMs)).min()
                .map { max($0, night.endMs - Int64(Hypnogram.longestMinutes) * 60_000) }
            // Stages against the clock only when every stretch of the night came with its times: a night partly
            // of totals would draw as partly empty.
            if daySummaries.allSatisfy({ $0.intervals != nil }) {
                let timed = (samplesByDay[day] ?? []) + daySummaries.flatMap { $0.intervals ?? [] }
                night.hypnogram = Hypnogram(samples: timed, endMs: night.endMs)
                night.startMs = night.hypnogram?.startMs
            }
            return night
        }
    }

    /// Rule 2: one night's samples from every device as one summary of unions.
    static func union(_ samples: [SleepSample]) -> SleepSummary {
        var minutes: [ReadingKind: Double] = [:]
        func covered(_ stretch: [SleepSample]) -> Double {
            Double(IntervalUnion.coveredMs(stretch.map { ($0.startMs, $0.endMs) })) / 60_000
        }
        let asleep = samples.filter(\.stage.isAsleep)
        if !asleep.isEmpty { minutes[.sleep] = covered(asleep) }
        for stage in SleepStage.allCases {
            guard let kind = stage.kind else { continue }
            let stretch = samples.filter { $0.stage == stage }
            if !stretch.isEmpty { minutes[kind] = covered(stretch) }
        }
        // Named after the device that saw the most of the night asleep (in bed, if none saw sleep).
        let bySource = Dictionary(grouping: samples, by: \.source).mapValues { mine in
            (covered(mine.filter(\.stage.isAsleep)), covered(mine))
        }
        let source = bySource.max { a, b in
            (a.value.0, a.value.1, b.key) < (b.value.0, b.value.1, a.key)
        }?.key ?? ""
        return SleepSummary(startMs: samples.map(\.startMs).min()!, endMs: samples.map(\.endMs).max()!,
                            source: source, minutes: minutes)
    }

    /// Rule 3: summaries whose windows overlap take each figure's largest; disjoint groups add.
    static func combined(_ summaries: [SleepSummary], day: Day) -> SleepNight {
        let sorted = summaries.sorted { ($0.startMs, $0.endMs, $0.source) < ($1.startMs, $1.endMs, $1.source) }
        var groups: [[SleepSummary]] = []
        var groupEnd = Int64.min
        for summary in sorted {
            if !groups.isEmpty, summary.startMs < groupEnd {
                groups[groups.count - 1].append(summary)
                groupEnd = max(groupEnd, summary.endMs)
            } else {
                groups.append([summary])
                groupEnd = summary.endMs
            }
        }
        var minutes: [ReadingKind: Double] = [:]
        for group in groups {
            var largest: [ReadingKind: Double] = [:]
            for summary in group {
                largest.merge(summary.minutes) { max($0, $1) }
            }
            minutes.merge(largest) { $0 + $1 }
        }
        let named = sorted.max { a, b in
            (a.minutes[.sleep] ?? 0, a.minutes[.timeInBed] ?? 0, b.source) < (b.minutes[.sleep] ?? 0, b.minutes[.timeInBed] ?? 0, a.source)
        }
        return SleepNight(day: day, endMs: sorted.map(\.endMs).max() ?? 0, source: named?.source ?? "", minutes: minutes)
    }
}

extension SleepStage {
    /// The kind a stage's minutes are kept under; nil for asleep without a stage, which counts in time
    /// asleep alone.
    public var kind: ReadingKind? {
        switch self {
        case .inBed: .timeInBed
        case .awake: .sleepAwake
        case .core: .coreSleep
        case .deep: .deepSleep
        case .rem: .remSleep
        case .unspecified: nil
        }
    }
}
