import Foundation
import ModelTestSupport
import Testing
@testable import HealthModel

/// The insights engine end to end on synthetic days: a planted relation is found with its sign, noise
/// finds nothing, and drifting levels are not mistaken for a relation.
@Suite struct InsightsEngineTests {
    static let utc = calendar("UTC")
    static let today = Day(year: 2026, month: 11, day: 22)

    /// 300 days in which what you eat drives the next day's weight change (7,700 kcal per kg plus scale
    /// noise), lean mass drifts up while weight drifts down (levels correlate, changes do not), and steps,
    /// active energy, HRV, stress and resting heart rate are pure noise.
    static func plantedTotals(seed: UInt64 = 14) -> [Day: DayTotals] {
        var random = SeededRandom(seed: seed)
        var totals: [Day: DayTotals] = [:]
        var weight = 90.0, lean = 55.0
        var eatenYesterday: Double?
        for back in stride(from: 299, through: 0, by: -1) {
            let day = today.adding(days: -back)
            var t = DayTotals()
            let eaten = 2_400 + 350 * random.normal()
            if let before = eatenYesterday { weight += (before - 2_600) / 7_700 + 0.04 * random.normal() }
            eatenYesterday = eaten
            lean += 0.01 + 0.05 * random.normal()
            t.add([Field.weight: .number(weight), Field.fatFreeMass: .number(lean), Field.calories: .number(eaten)])
            t.add([Field.steps: .number((8_000 + 2_500 * random.normal()).rounded()),
                   Field.activeEnergy: .number(450 + 120 * random.normal())])
            t.add([Field.rmssd: .number(50 + 12 * random.normal()), Field.stress: .number(random.unit()),
                   Field.restingHeartRate: .number((60 + 4 * random.normal()).rounded())])
            totals[day] = t
        }
        return totals
    }

    @Test func findsThePlantedRelationWithItsSignAndNothingInTheNoise() {
        let report = InsightsReport.compute(totals: Self.plantedTotals(), today: Self.today, profile: Profile(), calendar: Self.utc)
        let planted = report.correlations.filter { $0.attribute == .weight && $0.attribute2 == .energy && $0.offset == -1 }
        #expect(planted.count == 1)
        if let found = planted.first {
            #expect(found.value > 0.3, "eating more goes with the next day's weight going up")
            #expect(found.q <= 0.05 && found.stars >= 3)
            #expect(found.days >= 290)
            #expect(found.sentence == "On days after you eat more, your weight goes up more")
        }
        let relatedToPlanted: Set<InsightAttribute> = [.weight, .energy]
        let spurious = report.correlations.filter { !relatedToPlanted.contains($0.attribute) || !relatedToPlanted.contains($0.attribute2) }
        #expect(spurious.isEmpty, "found in noise: \(spurious.map(\.description))")
        #expect(report.testedPairs > 50, "every pair was tested, and BH adjusted for all of them")
    }

    @Test func driftingLevelsAreNotARelation() throws {
        let daily = DailyAttributes.build(totals: Self.plantedTotals(), days: Self.today.adding(days: -299)...Self.today,
                                          profile: Profile(), calendar: Self.utc)
        // As levels, weight (down) and lean mass (up) correlate strongly: both follow the calendar.
        var xs: [Double] = [], ys: [Double] = []
        for (w, l) in zip(daily.values[.weight]!, daily.values[.leanMass]!) where !w.isNaN && !l.isNaN {
            xs.append(w)
            ys.append(l)
        }
        let levels = try #require(RankCorrelation.spearman(xs, ys))
        #expect(levels.coefficient < -0.5 && levels.p < 1e-6)
        // As day-to-day changes, which is how the scan takes them, they do not.
        let tests = CorrelationScan.tests(daily, through: Self.today.adding(days: -1))
        let pair = try #require(tests.first { Set([$0.attribute, $0.attribute2]) == [.weight, .leanMass] && $0.offset == 0 })
        #expect(abs(pair.result.coefficient) < 0.2)
    }

    @Test func pureNoiseAloneFindsNothing() {
        for seed in [1, 2, 3] as [UInt64] {
            var totals = Self.plantedTotals(seed: seed)
            for day in totals.keys { totals[day]![.dietaryEnergy] = SumCount() }   // no food log: nothing planted
            let report = InsightsReport.compute(totals: totals, today: Self.today, profile: Profile(), calendar: Self.utc)
            #expect(report.correlations.isEmpty, "seed \(seed): \(report.correlations.map(\.description))")
        }
    }

    @Test func pairsWithFewerThan30DaysInCommonAreNotTested() {
        var totals = Self.plantedTotals()
        // HRV on every 11th day only: 28 days, fewer than the 30 a pair needs.
        for (i, day) in totals.keys.sorted().enumerated() where i % 11 != 0 { totals[day]![.heartRateVariabilityFromBeats] = SumCount() }
        let daily = DailyAttributes.build(totals: totals, days: Self.today.adding(days: -299)...Self.today, profile: Profile(), calendar: Self.utc)
        let tests = CorrelationScan.tests(daily, through: Self.today.adding(days: -1))
        #expect(!tests.contains { $0.attribute == .heartRateVariability || $0.attribute2 == .heartRateVariability })
        #expect(tests.contains { $0.attribute == .steps || $0.attribute2 == .steps })
    }

    /// Sleep efficiency, by hand: 420 minutes asleep of 480 in bed is 87.5 %, which Exist is given as 0.875; a
    /// night a phone's schedule saw (in bed alone) and one whose figures cannot both be right have none.
    @Test func sleepEfficiencyIsAsleepOverInBedOnANightWithBoth() {
        let days = Self.today.adding(days: -2)...Self.today
        var totals: [Day: DayTotals] = [:]
        var both = DayTotals(), inBedAlone = DayTotals(), impossible = DayTotals()
        both.add([Field.sleepMinutes: .number(420), Field.inBedMinutes: .number(480)])
        inBedAlone.add([Field.inBedMinutes: .number(480)])
        impossible.add([Field.sleepMinutes: .number(500), Field.inBedMinutes: .number(480)])
        (totals[days.lowerBound], totals[days.lowerBound.adding(days: 1)], totals[Self.today]) = (both, inBedAlone, impossible)
        let daily = DailyAttributes.build(totals: totals, days: days, profile: Profile(), calendar: Self.utc)
        #expect(daily.value(.sleepEfficiency, on: days.lowerBound) == 87.5)
        #expect(daily.value(.sleepEfficiency, on: days.lowerBound.adding(days: 1)) == nil)
        #expect(daily.value(.sleepEfficiency, on: Self.today) == nil)
        #expect(InsightAttribute.sleepEfficiency.existValue(87.5) == 0.875)
        #expect(InsightAttribute.sleepEfficiency.readingValue(fromExist: 0.875) == 87.5)
        #expect(InsightAttribute.sleepEfficiency.relation(to: .sleep) == .derived, "made from time asleep: never tested against it")
    }
}
