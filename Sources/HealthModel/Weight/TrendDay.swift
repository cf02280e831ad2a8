import Foundation

/// One day of the weight trend.
public struct TrendDay: Sendable, Equatable {
    public var day: Day
    /// The day's weigh-in (the average of that day's readings); nil on a day without one, where the
    /// trend moved toward a weight interpolated between the weigh-ins either side.
    public var weightKg: Double?
    /// The exponentially smoothed weight (Hacker's Diet), kg.
    public var trendKg: Double

    public init(day: Day, weightKg: Double?, trendKg: Double) {
        self.day = day
        self.weightKg = weightKg
        self.trendKg = trendKg
    }
}
