import Foundation
import ModelTestSupport
import Testing
@testable import HealthModel

/// The trend against values worked out by hand from the published formulas:
/// Hacker's Diet smoothing `trend[d] = trend[d-1] + 0.1 × (weight[d] − trend[d-1])`, seeded with the
/// first weight; TrendWeight's linear interpolation over days without a weigh-in; TrendWeight's
/// weekly rate, the least-squares slope over the last 14 days of trend × 7.
@Suite struct WeightTrendTests {
    private let d0 = Day(year: 2026, month: 11, day: 1)
    private func day(_ n: Int) -> Day { d0.adding(days: n) }
    private func close(_ a: Double?, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
        a.map { abs($0 - b) < tolerance } ?? false
    }

    @Test func aSingleWeighInIsItsOwnTrendAndHasNoRate() {
        let trend = WeightTrendBuilder.days(weighIns: [(day(0), 80)])
        #expect(trend == [TrendDay(day: day(0), weightKg: 80, trendKg: 80)])
        let summary = TrendSummary(trend: trend, heightCm: nil, goalKg: nil)
        #expect(summary?.weeklyKg == nil)
        #expect(summary?.change1WeekKg == nil)
        #expect(TrendSummary(trend: [], heightCm: nil, goalKg: nil) == nil)
    }

    @Test func daysWithoutAWeighInMoveTowardTheInterpolatedWeight() {
        // Weigh-ins 80 kg on day 0 and 83 kg on day 3: days 1 and 2 weigh 81 and 82 by interpolation.
        // t0 = 80
        // t1 = 80     + 0.1 × (81 − 80)     = 80.1
        // t2 = 80.1   + 0.1 × (82 − 80.1)   = 80.29
        // t3 = 80.29  + 0.1 × (83 − 80.29)  = 80.561
        let trend = WeightTrendBuilder.days(weighIns: [(day(3), 83), (day(0), 80)])
        #expect(trend.map(\.day) == [day(0), day(1), day(2), day(3)])
        #expect(trend.map(\.weightKg) == [80, nil, nil, 83])
        for (got, want) in zip(trend.map(\.trendKg), [80, 80.1, 80.29, 80.561]) {
            #expect(close(got, want))
        }
    }

    @Test func manyWeighInsInADayCountAsTheirAverage() {
        // Day 0: 80 and 81 average 80.5 (the seed). Day 1: 79, so t1 = 80.5 + 0.1 × (79 − 80.5) = 80.35.
        let cal = calendar()
        var totals: [Day: DailyWeightTotal] = [:]
        for (text, kg) in [("2026-11-01 07:00", 80.0), ("2026-11-01 21:00", 81.0), ("2026-11-02 07:00", 79.0)] {
            totals[Day(date(text, in: cal), in: cal), default: DailyWeightTotal(kg: 0, readings: 0)].add(kg)
        }
        let trend = WeightTrendBuilder.days(dailyTotals: totals)
        #expect(trend.map(\.weightKg) == [80.5, 79])
        #expect(close(trend.last?.trendKg, 80.35))
    }

    @Test func theWeeklyRateIsTheLeastSquaresSlopeOfTheTrend() {
        // Weights 80, 79, 78 → trend 80, 79.9, 79.9 + 0.1 × (78 − 79.9) = 79.71.
        // x = 0, 1, 2 (x̄ = 1); ȳ = 239.61 / 3 = 79.87.
        // slope = ((−1)(80 − 79.87) + (1)(79.71 − 79.87)) / ((−1)² + 1²) = (−0.13 − 0.16) / 2 = −0.145 kg/day
        // weekly = −0.145 × 7 = −1.015 kg; balance = −0.145 × 7,700 = −1,116.5 kcal/day.
        let trend = WeightTrendBuilder.days(weighIns: [(day(0), 80), (day(1), 79), (day(2), 78)])
        let summary = TrendSummary(trend: trend, heightCm: nil, goalKg: nil)
        #expect(close(summary?.weeklyKg, -1.015))
        #expect(close(summary?.dailyBalanceKcal(unit: .kg), -1116.5, within: 1e-6))
        // In pounds: −1.015 kg = −2.237692… lb a week; / 7 × 3,500 = −1,118.85 kcal/day.
        #expect(close(summary?.dailyBalanceKcal(unit: .lb), -1.015 / 0.45359237 / 7 * 3500, within: 1e-6))
    }

    @Test func onlyTheLastFourteenDaysSetTheRate() {
        // Six wild days, then fourteen on the line 80 − 0.1 × i: the fit sees only the line, −0.7 kg a week.
        let wild = (0..<6).map { TrendDay(day: day($0), weightKg: 100, trendKg: 100) }
        let line = (0..<14).map { TrendDay(day: day(6 + $0), weightKg: nil, trendKg: 80 - 0.1 * Double($0)) }
        #expect(close(WeightRate.weeklyKg(wild + line), -0.7))
    }

    @Test func aFlatWeightGivesAFlatTrendAndNoBalance() {
        let trend = WeightTrendBuilder.days(weighIns: (0..<30).map { (day($0), 70.0) })
        #expect(trend.allSatisfy { $0.trendKg == 70 })
        let summary = TrendSummary(trend: trend, heightCm: 175, goalKg: 70.5)
        #expect(summary?.weeklyKg == 0)
        #expect(summary?.dailyBalanceKcal(unit: .kg) == 0)
        #expect(summary?.change4WeeksKg == 0)
        #expect(summary?.goal == .maintaining)
    }

    @Test func changesLookBackOneTwoAndFourWeeksOfTrend() {
        // 29 days on the line 90 − 0.2 × i (set directly): 1 week −1.4 kg, 2 weeks −2.8, 4 weeks −5.6.
        let trend = (0..<29).map { TrendDay(day: day($0), weightKg: nil, trendKg: 90 - 0.2 * Double($0)) }
        let summary = TrendSummary(trend: trend, heightCm: nil, goalKg: nil)
        #expect(close(summary?.change1WeekKg, -1.4))
        #expect(close(summary?.change2WeeksKg, -2.8))
        #expect(close(summary?.change4WeeksKg, -5.6))
        #expect(TrendSummary(trend: Array(trend.prefix(20)), heightCm: nil, goalKg: nil)?.change4WeeksKg == nil)
    }

    @Test func theNewestWeighInIsTheLatestNotTheTrend() {
        let trend = WeightTrendBuilder.days(weighIns: [(day(0), 80), (day(1), 78)])
        let summary = TrendSummary(trend: trend, heightCm: nil, goalKg: nil)
        #expect(summary?.latestWeighInKg == 78)
        #expect(close(summary?.trendKg, 79.8))
    }

    @Test func bmiUsesTheTrendAndTheWHOCategories() {
        // 70 / 1.75² = 22.857… → normal weight.
        #expect(close(BodyMassIndex(weightKg: 70, heightCm: 175)?.value, 22.857142857142858))
        #expect(BodyMassIndex(weightKg: 70, heightCm: 175)?.category == .normal)
        #expect(BodyMassIndex(weightKg: 70, heightCm: nil) == nil)
        // The category follows the value as shown to one decimal: 56.5 / 1.75² = 18.449 shows as 18.4 →
        // underweight (56.6 gives 18.48, shown 18.5: normal); 76.5 / 1.75² = 24.98 shows as 25.0 → overweight;
        // 91.9 / 1.75² = 30.01 → obese class I; 122.5 / 1.75² = 40.0 → class III.
        #expect(BodyMassIndex(weightKg: 56.5, heightCm: 175)?.category == .underweight)
        #expect(BodyMassIndex(weightKg: 56.6, heightCm: 175)?.category == .normal)
        #expect(BodyMassIndex(weightKg: 76.5, heightCm: 175)?.category == .overweight)
        #expect(BodyMassIndex(weightKg: 91.9, heightCm: 175)?.category == .obeseI)
        #expect(BodyMassIndex(weightKg: 122.5, heightCm: 175)?.category == .obeseIII)
    }

    @Test func aGoalAheadIsReachedAtTheCurrentRate() {
        // 70 kg, goal 65, −0.5 kg a week: 5 kg × 7 / 0.5 = 70 days after 2026-11-01 → 2027-01-10.
        #expect(GoalProjection.project(trendKg: 70, goalKg: 65, weeklyKg: -0.5, asOf: d0)
                == .reaches(Day(year: 2027, month: 1, day: 10)))
        // Gaining toward a higher goal works the same way: 60 → 62 at +0.25 a week = 56 days.
        #expect(GoalProjection.project(trendKg: 60, goalKg: 62, weeklyKg: 0.25, asOf: d0) == .reaches(day(56)))
    }

    @Test func aGoalBehindTheTrendHasNoDate() {
        // Goal 65 below a trend of 70 that is rising: moving away.
        #expect(GoalProjection.project(trendKg: 70, goalKg: 65, weeklyKg: 0.3, asOf: d0) == .notApproaching)
        #expect(GoalProjection.project(trendKg: 70, goalKg: 65, weeklyKg: 0, asOf: d0) == .notApproaching)
        #expect(GoalProjection.project(trendKg: 70, goalKg: 65, weeklyKg: nil, asOf: d0) == .notApproaching)
        // Toward it, but 5 kg at 0.02 kg a week is 1,750 days: beyond three years.
        #expect(GoalProjection.project(trendKg: 70, goalKg: 65, weeklyKg: -0.02, asOf: d0) == .beyondHorizon)
        // Within 1 kg: maintaining, whatever the rate.
        #expect(GoalProjection.project(trendKg: 65.9, goalKg: 65, weeklyKg: 0.3, asOf: d0) == .maintaining)
    }

    @Test func dayOrdinalsAgreeWithTheCalendar() {
        #expect(Day(year: 1970, month: 1, day: 1).ordinal == 0)
        #expect(Day(year: 2000, month: 3, day: 1).ordinal == 11_017)
        var day = Day(year: 2023, month: 12, day: 25)
        for _ in 0..<800 {
            #expect(Day(ordinal: day.ordinal) == day)
            #expect(day.adding(days: 1).ordinal == day.ordinal + 1)
            day = day.adding(days: 1)
        }
    }
}
