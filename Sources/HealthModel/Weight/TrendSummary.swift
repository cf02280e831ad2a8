import Foundation

/// What the trend says today: the figures the weights screen's summary line and `hmon trend` show.
public struct TrendSummary: Sendable, Equatable {
    /// The last day of the trend (the newest weigh-in's day).
    public var asOf: Day
    public var trendKg: Double
    /// The newest weigh-in's day average, kg.
    public var latestWeighInKg: Double
    /// kg per week; nil with a single day of trend.
    public var weeklyKg: Double?
    /// The trend's change over 1, 2 and 4 weeks, kg; nil where the trend does not reach back that far.
    public var change1WeekKg: Double?
    public var change2WeeksKg: Double?
    public var change4WeeksKg: Double?
    public var bmi: BodyMassIndex?
    public var goalKg: Double?
    public var goal: GoalProjection?

    /// nil when there is no weigh-in at all.
    public init?(trend: [TrendDay], heightCm: Double?, goalKg: Double?) {
        guard let last = trend.last else { return nil }
        asOf = last.day
        trendKg = last.trendKg
        latestWeighInKg = trend.last(where: { $0.weightKg != nil })?.weightKg ?? last.trendKg
        let weekly = WeightRate.weeklyKg(trend)
        weeklyKg = weekly
        func change(weeks: Int) -> Double? {
            // The series has one entry per day, so the day `7 × weeks` back is found by position.
            let index = trend.count - 1 - 7 * weeks
            return index >= 0 ? last.trendKg - trend[index].trendKg : nil
        }
        change1WeekKg = change(weeks: 1)
        change2WeeksKg = change(weeks: 2)
        change4WeeksKg = change(weeks: 4)
        bmi = BodyMassIndex(weightKg: last.trendKg, heightCm: heightCm)
        self.goalKg = goalKg
        goal = goalKg.map { GoalProjection.project(trendKg: last.trendKg, goalKg: $0, weeklyKg: weekly, asOf: last.day) }
    }

    /// The daily energy balance the weekly rate implies, in the unit the person reads (see `WeightRate`).
    public func dailyBalanceKcal(unit: MassUnit) -> Double? {
        weeklyKg.map { WeightRate.dailyBalanceKcal(weeklyKg: $0, unit: unit) }
    }
}
