import Foundation

/// Everything the insights say, computed once for a face: the daily attributes, their averages, the
/// correlations that survive the false-discovery control, and the findings.
public struct InsightsReport: Sendable, Equatable {
    public var profile: Profile
    public var today: Day
    public var daily: DailyAttributes
    public var averages: [AttributeAverages]
    /// The pairs that survived, strongest evidence first; pairs that measure one thing twice are not among them.
    public var correlations: [AttributeCorrelation]
    public var findings: [Finding]
    /// How many pairs were tested (what the false-discovery control adjusted for).
    public var testedPairs: Int
    /// The pairs that survived but measure one thing twice (steps and active energy): as expected, shown apart.
    public var expectedCorrelations: [AttributeCorrelation] = []

    /// The days `compute` needs totals for: the correlation window, the weight carry before it, and today.
    public static func neededDays(today: Day, windowDays: Int = CorrelationScan.windowDays) -> ClosedRange<Day> {
        today.adding(days: -(max(windowDays, Findings.recordMonths[0] * 30 + 1) + WeightSeriesBuilder.carryDays))...today
    }

    /// - Parameters:
    ///   - totals: per local day, for `neededDays(today:)`.
    ///   - windowDays: the correlation window (365 by default; `--days`); averages take the last 60 of it at most.
    /// Averages and correlations end yesterday, the last complete day; findings look at today too.
    public static func compute(totals: [Day: DayTotals], nights: [NightFigures] = [], today: Day, profile: Profile, calendar: Calendar,
                               windowDays: Int = CorrelationScan.windowDays) -> InsightsReport {
        let yesterday = today.adding(days: -1)
        let recordDays = Findings.recordMonths[0] * 30 + 1
        let first = today.adding(days: -(max(windowDays, recordDays) - 1))
        let daily = DailyAttributes.build(totals: totals, nights: nights, days: first...today, profile: profile, calendar: calendar)
        let averageDays = min(AttributeAverages.windowDays, windowDays)
        let averages = InsightAttribute.allCases.compactMap {
            AttributeAverages.compute($0, in: daily, through: yesterday, windowDays: averageDays)
        }
        let tests = CorrelationScan.tests(daily, through: yesterday, windowDays: windowDays)
        let surviving = CorrelationScan.correlations(tests, through: yesterday)
        let correlations = surviving.filter { !$0.isExpected }
        let weighIns: [(day: Day, kg: Double)] = totals.compactMap { day, t in
            t[.weight].count > 0 && day >= first ? (day, t[.weight].sum / Double(t[.weight].count)) : nil
        }
        let trend = WeightTrendBuilder.days(weighIns: weighIns)
        let composition = BodyCompositionTrendBuilder.days(weighIns.compactMap { weighIn in
            totals[weighIn.day]?[.bodyFat].mean.map { (weighIn.day, weighIn.kg, $0) }
        })
        let findings = Findings.all(daily, averages: averages, trend: trend, bodyComposition: composition, today: today,
                                    profile: profile)
        return InsightsReport(profile: profile, today: today, daily: daily, averages: averages, correlations: correlations,
                              findings: findings, testedPairs: tests.count, expectedCorrelations: surviving.filter(\.isExpected))
    }
}
