import Foundation
import ModelTestSupport
import Testing
@testable import HealthModel

/// The body composition trend against values worked by hand from TrendWeight's method (Erv Walter's
/// trendweight.com: `computeFatTrends` in github.com/ervwalter/trendweight,
/// `apps/web/src/lib/dashboard/computations/trend-calculations.ts`): per measurement fat mass = weight ×
/// fat share and lean mass = weight − fat mass, then each of fat share, fat mass and lean mass smoothed as the weight is (The
/// Hacker's Diet's 10 % a day, seeded with the first value, a day between two moving toward the value
/// interpolated between them), each weekly change the least-squares slope of the last 14 days × 7.
@Suite struct BodyCompositionTrendTests {
    private let d0 = Day(year: 2026, month: 11, day: 1)
    private func day(_ n: Int) -> Day { d0.adding(days: n) }
    private func close(_ a: Double?, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
        a.map { abs($0 - b) < tolerance } ?? false
    }

    @Test func aWeighInSplitsIntoFatAndLeanMass() {
        // 80 kg at 25 %: fat 80 × 0.25 = 20 kg, lean 80 − 20 = 60 kg.
        let split = BodyComposition(weightKg: 80, fatPercent: 25)
        #expect(close(split.fatMassKg, 20))
        #expect(close(split.leanMassKg, 60))
    }

    /// Day 0: 80 kg at 25 % (fat 20, lean 60). Day 2: 78 kg at 24 % (fat 78 × 0.24 = 18.72, lean 59.28).
    /// Day 1 lies between: 24.5 %, fat 19.36, lean 59.64.
    private let twoMeasurements: [(day: Day, weightKg: Double, fatPercent: Double)] = [
        (Day(year: 2026, month: 11, day: 3), 78, 24), (Day(year: 2026, month: 11, day: 1), 80, 25),
    ]

    @Test func eachFigureIsSmoothedAsTheWeightIs() {
        let trend = BodyCompositionTrendBuilder.days(twoMeasurements)
        #expect(trend.map(\.day) == [day(0), day(1), day(2)])
        #expect(trend.map { $0.measured == nil } == [false, true, false], "day 1 had no measurement")
        // Fat share: 25 → 25 + 0.1 × (24.5 − 25) = 24.95 → 24.95 + 0.1 × (24 − 24.95) = 24.855.
        for (got, want) in zip(trend.map(\.trend.fatPercent), [25, 24.95, 24.855]) { #expect(close(got, want)) }
        // Fat mass: 20 → 20 + 0.1 × (19.36 − 20) = 19.936 → 19.936 + 0.1 × (18.72 − 19.936) = 19.8144.
        for (got, want) in zip(trend.map(\.trend.fatMassKg), [20, 19.936, 19.8144]) { #expect(close(got, want)) }
        // Lean mass: 60 → 60 + 0.1 × (59.64 − 60) = 59.964 → 59.964 + 0.1 × (59.28 − 59.964) = 59.8956.
        for (got, want) in zip(trend.map(\.trend.leanMassKg), [60, 59.964, 59.8956]) { #expect(close(got, want)) }
    }

    @Test func fatAndLeanTrendsAddUpToTheWeightTrendOfTheSameDays() {
        // The smoothing is linear, so the two masses' trends add up to the weight trend of the same
        // weigh-ins: 80, 79.9, 79.71 (`WeightTrendTests`).
        let composition = BodyCompositionTrendBuilder.days(twoMeasurements)
        let weight = WeightTrendBuilder.days(weighIns: twoMeasurements.map { ($0.day, $0.weightKg) })
        for (parts, whole) in zip(composition, weight) {
            #expect(close(parts.trend.fatMassKg + parts.trend.leanMassKg, whole.trendKg))
        }
    }

    @Test func theWeeklyChangesAreTheSlopesOfEachTrend() throws {
        // Three days x = 0, 1, 2 (x̄ = 1): the least-squares slope is (y₂ − y₀) / 2.
        // Fat share (24.855 − 25) / 2 = −0.0725 a day, × 7 = −0.5075 points a week;
        // fat mass (19.8144 − 20) / 2 = −0.0928, × 7 = −0.6496 kg; lean (59.8956 − 60) / 2 = −0.0522, × 7 = −0.3654 kg.
        let summary = try #require(BodyCompositionSummary(trend: BodyCompositionTrendBuilder.days(twoMeasurements)))
        #expect(summary.asOf == day(2))
        #expect(close(summary.weeklyFatPercent, -0.5075))
        #expect(close(summary.weeklyFatMassKg, -0.6496))
        #expect(close(summary.weeklyLeanMassKg, -0.3654))
    }

    @Test func aSingleDayHasATrendButNoWeeklyChange() throws {
        let summary = try #require(BodyCompositionSummary(trend: BodyCompositionTrendBuilder.days([(day(0), 80, 25)])))
        #expect(summary.trend == BodyComposition(weightKg: 80, fatPercent: 25))
        #expect(summary.weeklyFatPercent == nil && summary.weeklyFatMassKg == nil && summary.weeklyLeanMassKg == nil)
        #expect(BodyCompositionSummary(trend: []) == nil)
    }

    @Test func aDaysBodyFatReadingsAverageAndPairWithThatDaysWeighIns() {
        // Nov 1: 24 % and 26 % (at 23:30, still Nov 1 in Berlin) average 25 %, beside the day's 80 kg.
        // Nov 2: 23 % but no weigh-in, so no masses.
        // Nov 3: a weigh-in without body fat: no measurement either.
        let berlin = calendar()
        let paired = BodyCompositionTrendBuilder.measurements(
            fatReadings: [(date("2026-11-01 07:00", in: berlin), 24), (date("2026-11-01 23:30", in: berlin), 26),
                          (date("2026-11-02 07:00", in: berlin), 23)],
            weighIns: [(day(0), 80), (day(2), 79)], calendar: berlin)
        #expect(paired.map(\.day) == [day(0)])
        #expect(paired.map(\.weightKg) == [80])
        #expect(paired.map(\.fatPercent) == [25])
    }
}
