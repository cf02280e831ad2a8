import Foundation

/// What the body composition trend says on its last day, and how fast each figure moves.
public struct BodyCompositionSummary: Sendable, Equatable {
    /// The last day of the trend (the newest day with both a body fat reading and a weigh-in).
    public var asOf: Day
    public var trend: BodyComposition
    /// Per week, each the least-squares slope of the last 14 days of its trend × 7, the weight rate's
    /// rule (`WeightRate`); nil with a single day of trend.
    public var weeklyFatPercent: Double?
    public var weeklyFatMassKg: Double?
    public var weeklyLeanMassKg: Double?

    /// nil when there is no day of trend.
    public init?(trend: [BodyCompositionDay]) {
        guard let last = trend.last else { return nil }
        asOf = last.day
        self.trend = last.trend
        let window = trend.suffix(WeightRate.fitDays)
        func weekly(_ figure: (BodyComposition) -> Double) -> Double? {
            WeightRate.slopePerDay(window.map { ($0.day.ordinal, figure($0.trend)) }).map { $0 * 7 }
        }
        weeklyFatPercent = weekly(\.fatPercent)
        weeklyFatMassKg = weekly(\.fatMassKg)
        weeklyLeanMassKg = weekly(\.leanMassKg)
    }
}
