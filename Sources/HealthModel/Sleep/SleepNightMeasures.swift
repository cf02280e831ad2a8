import Foundation

/// One night's measures, as `docs/methods.md` ("Sleep: a night's measures") defines them: from its stages
/// against the clock where it has them, else from its window (the session) and its stored totals.
public struct SleepNightMeasures: Codable, Sendable, Equatable {
    public var day: Day
    public var source: String
    /// Into bed (the main sleep's first recorded minute, or the session's start); nil when unknown.
    public var bedMs: Int64?
    /// Out of bed: the main sleep's last recorded minute's end, or the session's end.
    public var wakeMs: Int64
    /// Minutes asleep in the main sleep (naps apart).
    public var asleep: Double?
    /// Minutes from bed to wake.
    public var inBed: Double?
    /// Asleep ÷ in bed, 0–1.
    public var efficiency: Double?
    /// Minutes from bed to the first minute asleep; stages only.
    public var latency: Double?
    /// Minutes awake (or only in bed) between the first and the last minute asleep; stages only.
    public var wakeAfterSleepOnset: Double?
    /// Halfway between falling asleep and the final awakening (stages), or between bed and wake (session).
    public var midpointMs: Int64?
    /// Minutes per stage where known, by the field it is kept in (`deepSleepMinutes`, `remSleepMinutes`,
    /// `coreSleepMinutes`, `awakeMinutes`).
    public var stages: [String: Double]
    /// Naps: asleep stretches under three hours in the daytime, counted apart from the night.
    public var naps: [Nap]
    /// Whether the figures came from the stages (true) or from the session (false).
    public var fromStages: Bool
    /// The night's stages against the clock, naps included, to draw.
    public var hypnogram: Hypnogram?

    public struct Nap: Codable, Sendable, Equatable {
        public var startMs: Int64
        public var endMs: Int64
        public var asleep: Double
    }

    /// Minutes asleep in naps.
    public var napMinutes: Double { naps.reduce(0) { $0 + $1.asleep } }

    /// The kinds of the stages a night shows, deepest first.
    public static let stageKinds: [ReadingKind] = [.deepSleep, .remSleep, .coreSleep, .sleepAwake]

    /// Stretches of recorded minutes further apart than this are separate sleeps (a night and a nap).
    public static let boutGapMinutes = 60
    /// A sleep shorter than this, begun at or after `napDayStartsHour` and ended by `napDayEndsHour`, is a nap.
    public static let napLongestMinutes = 180
    public static let napDayStartsHour = 9
    public static let napDayEndsHour = 21

    /// The measures of `night`, its clock times read in `calendar`'s zone (which says what daytime is).
    public init(_ night: SleepNight, calendar: Calendar) {
        day = night.day
        source = night.source
        naps = []
        hypnogram = night.hypnogram
        stages = Dictionary(uniqueKeysWithValues: night.minutes.filter { Self.stageKinds.contains($0.key) }.map { ($0.key.field, $0.value) })
        guard let hypnogram = night.hypnogram, let main = Self.mainBout(hypnogram, calendar: calendar, naps: &naps) else {
            fromStages = false
            wakeMs = night.endMs
            bedMs = night.startMs
            asleep = night.minutes[.sleep]
            inBed = night.startMs.map { Double(night.endMs - $0) / 60_000 } ?? night.minutes[.timeInBed]
            if let asleep, let inBed, inBed > 0 { efficiency = min(1, asleep / inBed) }
            midpointMs = night.startMs.map { ($0 + night.endMs) / 2 }
            return
        }
        fromStages = true
        let minutes = hypnogram.minutes[main]
        bedMs = hypnogram.startMs + Int64(main.lowerBound) * 60_000
        wakeMs = hypnogram.startMs + Int64(main.upperBound) * 60_000
        let asleepMinutes = minutes.indices.filter { minutes[$0]?.isAsleep == true }
        asleep = Double(asleepMinutes.count)
        inBed = Double(main.count)
        efficiency = main.isEmpty ? nil : Double(asleepMinutes.count) / Double(main.count)
        var counted: [String: Double] = [:]
        for stage in minutes.compactMap({ $0 }) {
            if let kind = stage.kind, Self.stageKinds.contains(kind) { counted[kind.field, default: 0] += 1 }
        }
        stages = counted
        if let onset = asleepMinutes.first, let last = asleepMinutes.last {
            latency = Double(onset - main.lowerBound)
            wakeAfterSleepOnset = Double(minutes[onset...last].filter { $0 != nil && $0?.isAsleep == false }.count)
            let onsetMs = hypnogram.startMs + Int64(onset) * 60_000
            let finalWakeMs = hypnogram.startMs + Int64(last + 1) * 60_000
            midpointMs = (onsetMs + finalWakeMs) / 2
        }
    }

    /// The minutes of the night's main sleep: from the first to the last bout (recorded minutes no more than
    /// `boutGapMinutes` apart, with a minute asleep) that is not a nap; a day of naps alone takes its
    /// longest. The naps go to `naps`.
    static func mainBout(_ hypnogram: Hypnogram, calendar: Calendar, naps: inout [Nap]) -> Range<Int>? {
        var bouts: [Range<Int>] = []
        var lastRecorded: Int?
        for (minute, stage) in hypnogram.minutes.enumerated() where stage != nil {
            if let last = lastRecorded, minute - last <= boutGapMinutes {
                bouts[bouts.count - 1] = bouts[bouts.count - 1].lowerBound..<(minute + 1)
            } else {
                bouts.append(minute..<(minute + 1))
            }
            lastRecorded = minute
        }
        func asleep(_ bout: Range<Int>) -> Int { hypnogram.minutes[bout].filter { $0?.isAsleep == true }.count }
        func isNap(_ bout: Range<Int>) -> Bool {
            guard bout.count < napLongestMinutes else { return false }
            let start = Date(timeIntervalSince1970: Double(hypnogram.startMs + Int64(bout.lowerBound) * 60_000) / 1000)
            let end = Date(timeIntervalSince1970: Double(hypnogram.startMs + Int64(bout.upperBound) * 60_000) / 1000)
            guard calendar.isDate(start, inSameDayAs: end) else { return false }
            let from = calendar.dateComponents([.hour, .minute], from: start)
            let to = calendar.dateComponents([.hour, .minute], from: end)
            return from.hour! >= napDayStartsHour && (to.hour! < napDayEndsHour || (to.hour! == napDayEndsHour && to.minute! == 0))
        }
        let sleeps = bouts.filter { asleep($0) > 0 }
        let nights = sleeps.filter { !isNap($0) }
        let main: Range<Int>
        if let first = nights.first, let last = nights.last {
            main = first.lowerBound..<last.upperBound
        } else if let longest = sleeps.max(by: { asleep($0) < asleep($1) }) {
            main = longest
        } else {
            return nil
        }
        naps = sleeps.filter { !main.overlaps($0) }.map { bout in
            Nap(startMs: hypnogram.startMs + Int64(bout.lowerBound) * 60_000,
                endMs: hypnogram.startMs + Int64(bout.upperBound) * 60_000, asleep: Double(asleep(bout)))
        }
        return main
    }
}
