import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import Testing

/// What `hmon trend` prints about body composition, from the trend worked by hand in
/// `BodyCompositionTrendTests`: 80 kg at 25 % on Nov 1 and 78 kg at 24 % on Nov 3 give trends of
/// 24.855 %, fat 19.8144 kg and lean 59.8956 kg, moving −0.5075 points, −0.6496 kg and −0.3654 kg a week.
@Suite struct TrendBodyCompositionTextTests {
    private let d0 = Day(year: 2026, month: 11, day: 1)
    private var composition: [BodyCompositionDay] {
        BodyCompositionTrendBuilder.days([(d0, 80, 25), (d0.adding(days: 2), 78, 24)])
    }

    private func input(mass: MassUnit, bodyComposition: BodyCompositionSummary?) -> TrendText.Input {
        let days = WeightTrendBuilder.days(weighIns: [(d0, 80), (d0.adding(days: 2), 78)])
        return TrendText.Input(summary: TrendSummary(trend: days, heightCm: nil, goalKg: nil),
                               expenditure: .needsMoreData(foodDays: 0, weighInDays: 2), formulaKcalPerDay: nil,
                               bodyComposition: bodyComposition, massUnit: mass, energyUnit: .kcal)
    }

    @Test func bodyFatAndBothMassesFollowTheOtherLinesWithTheirWeeklyChange() {
        let lines = TrendText.lines(input(mass: .kg, bodyComposition: BodyCompositionSummary(trend: composition)))
        #expect(Array(lines.suffix(3)) == [
            "Body fat:    24.9 % on 2026-11-03, −0.51 pt/week",
            "Fat mass:    19.8 kg, −0.65 kg/week",
            "Lean mass:   59.9 kg, −0.37 kg/week",
        ])
    }

    @Test func theMassesAreInPoundsForSomeoneWhoReadsPounds() {
        // 19.8144 kg = 43.68 lb, −0.6496 kg = −1.432 lb; 59.8956 kg = 132.05 lb, −0.3654 kg = −0.806 lb.
        let lines = TrendText.lines(input(mass: .lb, bodyComposition: BodyCompositionSummary(trend: composition)))
        #expect(Array(lines.suffix(2)) == ["Fat mass:    43.7 lb, −1.43 lb/week", "Lean mass:   132.0 lb, −0.81 lb/week"])
    }

    @Test func withoutBodyFatItSaysWhereItComesFrom() {
        let lines = TrendText.lines(input(mass: .kg, bodyComposition: nil))
        #expect(lines.last == "Body fat:    no day with both body fat and a weigh-in (a scale that measures it, or `hmon import`)")
    }

    @Test func theJSONCarriesEachDaysTrendsAndTheWeeklyChanges() throws {
        let summary = BodyCompositionSummary(trend: composition)
        let weightDays = WeightTrendBuilder.days(weighIns: [(d0, 80), (d0.adding(days: 2), 78)])
        let data = try TrendJSON.data(input(mass: .lb, bodyComposition: summary), days: weightDays, bodyComposition: composition)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let entries = object?["days"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["fatPercent"] as? Double } == [25, nil, 24])
        #expect(entries[1]["fatPercent"] is NSNull)
        // Rounded to 0.01: 24.95, 24.855 → 24.86; 19.936 → 19.94, 19.8144 → 19.81; 59.964 → 59.96, 59.8956 → 59.9.
        #expect(entries.map { $0["fatPercentTrend"] as? Double } == [25, 24.95, 24.86])
        #expect(entries.map { $0["fatMassTrend"] as? Double } == [20, 19.94, 19.81])
        #expect(entries.map { $0["leanMassTrend"] as? Double } == [60, 59.96, 59.9])
        let s = object?["summary"] as? [String: Any]
        // In kg whatever the profile's unit, as every mass in the JSON.
        #expect(s?["fatMassTrendKg"] as? Double == 19.81)
        #expect(s?["fatMassWeeklyKg"] as? Double == -0.65)
        #expect(s?["leanMassWeeklyKg"] as? Double == -0.365)
        #expect(s?["bodyFatTrendPercent"] as? Double == 24.86)
        #expect(s?["bodyCompositionAsOf"] as? String == "2026-11-03")
    }

    @Test func theJSONSaysNullWhereThereIsNoBodyFat() throws {
        let weightDays = WeightTrendBuilder.days(weighIns: [(d0, 80)])
        let data = try TrendJSON.data(input(mass: .kg, bodyComposition: nil), days: weightDays)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect((object?["days"] as? [[String: Any]])?.first?["fatMassTrend"] is NSNull)
        #expect((object?["summary"] as? [String: Any])?["bodyFatTrendPercent"] is NSNull)
    }
}
