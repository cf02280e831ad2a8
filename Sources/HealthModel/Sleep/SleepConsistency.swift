import Foundation

/// How steady bed and wake times are: the standard deviation (sample, n − 1) of each, in minutes. Times are
/// read as minutes after noon of the day before the night's day, so 23:00 and 01:00 are two hours apart,
/// not twenty-two.
public struct SleepConsistency: Codable, Sendable, Equatable {
    public var bedMinutes: Double?
    public var wakeMinutes: Double?

    /// Over `measures` (nights without a bed time count for wake times alone); nil for fewer than two times.
    public init(_ measures: [SleepNightMeasures], calendar: Calendar) {
        bedMinutes = Self.deviation(measures.compactMap { night in night.bedMs.map { Self.clock($0, of: night.day, calendar: calendar) } })
        wakeMinutes = Self.deviation(measures.map { Self.clock($0.wakeMs, of: $0.day, calendar: calendar) })
    }

    /// Minutes from noon of the day before `day` to `ms`.
    public static func clock(_ ms: Int64, of day: Day, calendar: Calendar) -> Double {
        let noon = calendar.date(byAdding: .hour, value: 12, to: day.adding(days: -1).start(in: calendar))!
        return (Double(ms) / 1000 - noon.timeIntervalSince1970) / 60
    }

    static func deviation(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }
}
