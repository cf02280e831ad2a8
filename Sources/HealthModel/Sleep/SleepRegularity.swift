import Foundation

/// The Sleep Regularity Index (Phillips et al. 2017, "Irregular sleep/wake patterns are associated with
/// poorer academic performance and delayed circadian and sleep/wake timing", Sci Rep 7:3216): the chance
/// that a person is in the same state (asleep or awake) at two moments 24 hours apart, scaled so that a
/// sleep at the same hours every day gives 100 and a coin toss gives 0:
///
///     SRI = 200 · P(same state at minute t of day d and of day d + 1) − 100
///
/// on one-minute epochs. A day runs noon to noon (day D is noon of D − 1 to noon of D, so the night that
/// ends on D lies inside it), and a pair of days counts only when both have a night: a day the watch was
/// off is not a day awake.
public enum SleepRegularity {
    /// Minutes in a day's vector.
    public static let epochs = 1_440

    /// The index over the `days` days ending on `last`, from `nights`; nil when no two consecutive days in
    /// it both have a night.
    public static func index(nights: [SleepNight], days: Int, endingOn last: Day, calendar: Calendar) -> Double? {
        let byDay = Dictionary(nights.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        let asleep = nights.flatMap(asleepIntervals)
        var same = 0, compared = 0
        let first = last.adding(days: -(days - 1))
        var previous: [Bool]?
        for offset in 0..<days {
            let day = first.adding(days: offset)
            guard byDay[day] != nil else {
                previous = nil
                continue
            }
            let states = self.states(of: day, asleep: asleep, calendar: calendar)
            if let previous {
                for minute in 0..<epochs where previous[minute] == states[minute] { same += 1 }
                compared += epochs
            }
            previous = states
        }
        guard compared > 0 else { return nil }
        return 200 * Double(same) / Double(compared) - 100
    }

    /// Whether each minute of `day` (from noon of the day before) is asleep.
    static func states(of day: Day, asleep: [(start: Int64, end: Int64)], calendar: Calendar) -> [Bool] {
        let noon = calendar.date(byAdding: .hour, value: 12, to: day.adding(days: -1).start(in: calendar))!
        let startMs = Int64((noon.timeIntervalSince1970 * 1000).rounded())
        var states = [Bool](repeating: false, count: epochs)
        for interval in asleep {
            let from = max(0, Int((interval.start - startMs).floorDivided(by: 60_000)))
            let to = min(epochs, Int((interval.end - startMs + 59_999).floorDivided(by: 60_000)))
            if from < to { for minute in from..<to { states[minute] = true } }
        }
        return states
    }

    /// When a night was asleep: its stages' asleep minutes (naps too: the index counts every sleep), else its
    /// window, else its time in bed (or asleep) counted back from its end.
    public static func asleepIntervals(_ night: SleepNight) -> [(start: Int64, end: Int64)] {
        if let hypnogram = night.hypnogram {
            return hypnogram.runs.filter { $0.stage?.isAsleep == true }.map { run in
                (hypnogram.startMs + Int64(run.offset) * 60_000, hypnogram.startMs + Int64(run.offset + run.length) * 60_000)
            }
        }
        if let start = night.startMs { return [(start, night.endMs)] }
        guard let minutes = night.minutes[.timeInBed] ?? night.minutes[.sleep] else { return [] }
        return [(night.endMs - Int64(minutes * 60_000), night.endMs)]
    }
}
