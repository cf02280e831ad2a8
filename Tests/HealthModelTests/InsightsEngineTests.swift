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

    /// A night's figures, by hand (UTC). In bed 23:00–07:00 with 420 minutes asleep: efficiency 420/480 = 87.5 %,
    /// midpoint 03:00, 900 minutes from the noon before. The next night 00:00–07:00 with 400 asleep: 95.24 %,
    /// midpoint 03:30 (930), and against the night before 60 of 1,440 minutes differ: SRI 200 · 1380/1440 − 100 =
    /// 91.67 (Phillips et al. 2017; `SleepMeasuresTests` works the 7-day index). A night of time in bed alone has
    /// no efficiency and no midpoint. Exist is given the midpoint as minutes from midday (its value type 6) and
    /// the efficiency as 0–1; the averages show the midpoint as a clock.
    @Test func aNightsEfficiencyMidpointAndRegularityByHand() {
        let d = Self.today
        func at(_ day: Day, _ hour: Int) -> Int64 { day.start(in: Self.utc).addingTimeInterval(Double(hour) * 3600).millisecondsSince1970 }
        let first = SleepNight(day: d.adding(days: -2), endMs: at(d.adding(days: -2), 7), source: "Watch",
                               minutes: [.sleep: 420, .timeInBed: 480], startMs: at(d.adding(days: -3), 23))
        let second = SleepNight(day: d.adding(days: -1), endMs: at(d.adding(days: -1), 7), source: "Watch",
                                minutes: [.sleep: 400, .timeInBed: 420], startMs: at(d.adding(days: -1), 0))
        let bedOnly = SleepNight(day: d, endMs: at(d, 7), source: "Phone", minutes: [.timeInBed: 480])
        let figures = NightFigures.of([first, second, bedOnly], calendar: Self.utc)
        #expect(figures[0] == NightFigures(day: first.day, efficiency: 87.5, midpointFromNoon: 900, regularity: nil))
        #expect(abs((figures[1].efficiency ?? 0) - 400.0 / 420 * 100) < 1e-9 && figures[1].midpointFromNoon == 930)
        #expect(abs((figures[1].regularity ?? 0) - (200 * 1380.0 / 1440 - 100)) < 1e-9)
        #expect(figures[2].efficiency == nil && figures[2].midpointFromNoon == nil)

        let daily = DailyAttributes.build(totals: [:], nights: figures, days: d.adding(days: -2)...d, profile: Profile(), calendar: Self.utc)
        #expect(daily.value(.sleepEfficiency, on: first.day) == 87.5 && daily.value(.sleepMidpoint, on: first.day) == 900)
        #expect(daily.value(.sleepRegularity, on: first.day) == nil, "no night before it")
        #expect(daily.value(.sleepEfficiency, on: d) == nil)
        #expect(InsightAttribute.sleepEfficiency.existValue(87.5) == 0.875 && InsightAttribute.sleepMidpoint.existValue(900) == 900)
        #expect(InsightAttribute.sleepEfficiency.readingValue(fromExist: 0.875) == 87.5)
        #expect(InsightAttribute.sleepEfficiency.relation(to: .sleep) == .derived, "made from time asleep: never tested against it")
        #expect(AverageCells.text(900, .sleepMidpoint, Profile()) == "03:00" && AverageCells.text(690, .sleepMidpoint, Profile()) == "23:30")
    }
}
