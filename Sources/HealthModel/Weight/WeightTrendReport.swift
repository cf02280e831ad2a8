import Foundation

/// Everything the trend says, gathered once for a face: the days, the summary, and expenditure learned
/// beside the formula's estimate.
public struct WeightTrendReport: Sendable, Equatable {
    public var profile: Profile
    /// Oldest first, one entry per day from the first weigh-in looked at to the newest.
    public var days: [TrendDay]
    public var summary: TrendSummary?
    public var expenditure: LearnedExpenditure.Estimate
    /// The formula's expenditure (BMR + active), mean over the same complete days, kcal per day;
    /// nil when the profile lacks what the BMR needs.
    public var formulaKcalPerDay: Double?

    public init(profile: Profile, days: [TrendDay], summary: TrendSummary?, expenditure: LearnedExpenditure.Estimate,
                formulaKcalPerDay: Double?) {
        self.profile = profile
        self.days = days
        self.summary = summary
        self.expenditure = expenditure
        self.formulaKcalPerDay = formulaKcalPerDay
    }
}

extension HealthService {
    /// The weight trend over the last `lookbackDays` days up to today, from every device of the user.
    /// The smoothing forgets its seed quickly (0.9⁶⁰ < 0.2 %), so a year's look-back gives today's trend
    /// as a look-back over all history would.
    ///
    /// Expenditure is learned over the 28 days before today: today's food log is still partial.
    public func weightTrendReport(now: Date, calendar: Calendar, lookbackDays: Int = 365) async throws -> WeightTrendReport {
        let profile = try await profile()
        let today = Day(now, in: calendar)
        let series = try await weightSeries(days: today.adding(days: -(lookbackDays - 1))...today, calendar: calendar)
        let days = WeightTrendBuilder.days(series: series)
        let yesterday = today.adding(days: -1)
        let window = yesterday.adding(days: -(LearnedExpenditure.windowDays - 1))...yesterday
        let energy = try await energySummaries(for: window, now: now, calendar: calendar)
        var intake: [Day: Double] = [:]
        for summary in energy where summary.consumed > 0 { intake[summary.day] = summary.consumed }
        let formulaDays = energy.compactMap { s in s.resting.map { $0 + s.active } }
        return WeightTrendReport(
            profile: profile, days: days,
            summary: TrendSummary(trend: days, heightCm: profile.heightCm, goalKg: profile.goalKg),
            expenditure: LearnedExpenditure.estimate(trend: days, intakeKcal: intake, through: yesterday),
            formulaKcalPerDay: formulaDays.isEmpty ? nil : formulaDays.reduce(0, +) / Double(formulaDays.count))
    }
}
