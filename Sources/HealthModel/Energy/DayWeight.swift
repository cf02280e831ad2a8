import Foundation

/// The day's weight the BMR uses, one definition for the Energy screen, `hmon profile show`, the insights and
/// Exist's `resting_energy`: the mean of the weigh-ins of the latest day weighed on or before the day, as the
/// weight series averages a day (a second weigh-in that evening moves the day's weight, not replaces it).
public enum DayWeight {
    /// The local day of `latest` (the latest weigh-in on or before the day asked for) as half-open ms bounds,
    /// ending no later than `end`: the weigh-ins to average.
    public static func window(of latest: WeightReading, end: Int64, calendar: Calendar) -> (from: Int64, to: Int64) {
        let day = Day(latest.date, in: calendar)
        return (day.start(in: calendar).millisecondsSince1970, min(end, day.adding(days: 1).start(in: calendar).millisecondsSince1970))
    }

    /// The mean of `weighIns` (those of one day), or `latest` alone when there are none.
    public static func kg(_ weighIns: [Double], latest: Double) -> Double {
        weighIns.isEmpty ? latest : weighIns.reduce(0, +) / Double(weighIns.count)
    }
}
