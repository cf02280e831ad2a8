import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import Testing

/// What `hmon trend` prints, from a trend worked by hand.
@Suite struct TrendTextTests {
    private let d0 = Day(year: 2026, month: 11, day: 1)

    /// Fifteen days of trend on the line 80 − 0.1 × i (Nov 1 … Nov 15), the last day weighed at 78 kg:
    /// trend 78.6, rate −0.7 kg a week, −0.1 × 7,700 = −770 kcal/day.
    private func input(mass: MassUnit = .kg, goalKg: Double? = 75,
                       expenditure: LearnedExpenditure.Estimate = .needsMoreData(foodDays: 3, weighInDays: 3)) -> TrendText.Input {
        var days = (0..<15).map { TrendDay(day: d0.adding(days: $0), weightKg: nil, trendKg: 80 - 0.1 * Double($0)) }
        days[14].weightKg = 78
        let summary = TrendSummary(trend: days, heightCm: 180, goalKg: goalKg)
        return TrendText.Input(summary: summary, expenditure: expenditure, formulaKcalPerDay: 2410.4, massUnit: mass, energyUnit: .kcal)
    }

    @Test func theSummaryReadsInKilograms() {
        let lines = TrendText.lines(input())
        #expect(lines[0] == "Trend:       78.6 kg on 2026-11-15 (that day's weigh-ins average 78.0 kg)")
        #expect(lines[1] == "Weekly rate: −0.70 kg/week (a deficit of 770 kcal/day)")
        #expect(lines[2] == "Change:      1 week −0.7 kg, 2 weeks −1.4 kg, 4 weeks –")
        // 78.6 / 1.8² = 24.26.
        #expect(lines[3] == "BMI:         24.3 (normal weight)")
        // 3.6 kg to lose at 0.7 kg a week: 3.6 × 7 / 0.7 = 36 days after Nov 15 = Dec 21.
        #expect(lines[4] == "Goal:        75.0 kg, reached around 2026-12-21 at the current rate")
        #expect(lines[5] == "Expenditure: needs 14 days of food logs and weigh-ins in the last 28 (has 3 and 3); formula (BMR + active) 2,410 kcal/day")
    }

    @Test func poundsUseThreeThousandFiveHundredKcalPerPound() {
        let lines = TrendText.lines(input(mass: .lb, goalKg: nil, expenditure: .learned(kcalPerDay: 2385, foodDays: 20, weighInDays: 25)))
        // −0.7 kg = −1.5432 lb a week; / 7 × 3,500 = −771.6 kcal/day.
        #expect(lines[1] == "Weekly rate: −1.54 lb/week (a deficit of 772 kcal/day)")
        #expect(lines[4] == "Goal:        not set (hmon profile set --goal-kg KG)")
        #expect(lines[5] == "Expenditure: 2,385 kcal/day learned from 20 days of food logs and 25 of weigh-ins; formula (BMR + active) 2,410 kcal/day")
    }

    @Test func noWeighInsSaysHowToAddOne() {
        let input = TrendText.Input(summary: nil, expenditure: .needsMoreData(foodDays: 0, weighInDays: 0), formulaKcalPerDay: nil,
                                    massUnit: .kg, energyUnit: .kcal)
        #expect(TrendText.lines(input).first?.hasPrefix("No weigh-ins yet") == true)
    }

    @Test func theJSONHasTheDaysOldestFirstInKilogramsWithNullForAGap() throws {
        let days = WeightTrendBuilder.days(weighIns: [(d0, 80), (d0.adding(days: 2), 82)])
        let summary = TrendSummary(trend: days, heightCm: nil, goalKg: nil)
        let input = TrendText.Input(summary: summary, expenditure: .needsMoreData(foodDays: 0, weighInDays: 2), formulaKcalPerDay: nil,
                                    massUnit: .lb, energyUnit: .kJ)
        let object = try JSONSerialization.jsonObject(with: TrendJSON.data(input, days: days)) as? [String: Any]
        let entries = object?["days"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["date"] as? String } == ["2026-11-01", "2026-11-02", "2026-11-03"])
        #expect(entries.map { $0["weight"] as? Double } == [80, nil, 82])
        #expect(entries[1]["weight"] is NSNull)
        // 80 → 80 + 0.1 × (81 − 80) = 80.1 → 80.1 + 0.1 × (82 − 80.1) = 80.29.
        #expect(entries.map { $0["trend"] as? Double } == [80, 80.1, 80.29])
        let s = object?["summary"] as? [String: Any]
        #expect(s?["trendKg"] as? Double == 80.29)
        #expect(s?["asOf"] as? String == "2026-11-03")
        #expect(s?["bmi"] is NSNull)
        #expect(s?["goalStatus"] is NSNull)
    }
}
