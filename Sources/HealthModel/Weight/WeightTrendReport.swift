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
