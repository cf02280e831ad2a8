import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The overview's lines from fixed figures: each on the same 30 days, the last night's sleep with its
/// stages, today's steps against the week before, and an empty line that says how to fill it.
struct OverviewRowsTests {
    static let today = Day(year: 2026, month: 11, day: 20)
    static let first = today.adding(days: -29)
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func rows(_ totals: [Day: DayTotals]) -> [OverviewRow] {
        OverviewRows.make(Profile(), weights: WeightSeries(days: first...today, points: []), energy: [], totals: totals,
                          first: first, today: today, calendar: utc)
    }

    @Test func everyLineHasTheSameThirtyDays() {
        var night = DayTotals()
        night.add([Field.sleepMinutes: .number(450), Field.deepSleepMinutes: .number(65), Field.remSleepMinutes: .number(95)])
        night.add([Field.steps: .number(4000)])
        var before = DayTotals()
        before.add([Field.sleepMinutes: .number(400)])
        before.add([Field.steps: .number(9000)])
        let rows = Self.rows([Self.today: night, Self.today.adding(days: -1): before])
        #expect(rows.map(\.label) == ["Weight", "Net energy", "HRV", "Sleep", "Resting HR", "Steps"])
        #expect(rows.allSatisfy { $0.values.count == 30 })

        let sleep = rows[3]
        #expect(sleep.figure == "7 h 30")
        #expect(sleep.detail == "deep 1h05 REM 1h35")
        #expect(sleep.values.suffix(2) == [400, 450], "the night on the day it ended, beside the one before")
        let steps = rows[5]
        #expect(steps.figure == "4,000 steps")
        #expect(steps.detail == "7-day mean 9,000", "the days before today: today is not over")
    }

    @Test func anEmptyLineSaysHowToFillIt() {
        let rows = Self.rows([:])
        #expect(rows.allSatisfy { $0.isEmpty })
        #expect(rows.allSatisfy { $0.figure == "—" })
        #expect(rows[0].detail == "add a weigh-in on Weights (2): a")
        #expect(rows[3].detail == "import a watch's export: hmon import export.zip")
    }

    /// A ring's readiness has a line of its own when the window holds a score, and none otherwise.
    @Test func readinessHasALineOnlyForSomeoneWhoSendsIt() {
        #expect(!Self.rows([:]).contains { $0.label == "Readiness" })
        var totals: [Day: DayTotals] = [:]
        // Eight scored days, the last yesterday's: the mean is of the last seven (80…86 → 83).
        for (offset, score) in [60, 80, 81, 82, 83, 84, 85, 86].enumerated() {
            var day = DayTotals()
            day.add([Field.readinessScore: .number(Double(score))])
            totals[Self.today.adding(days: offset - 8)] = day
        }
        let rows = Self.rows(totals)
        let readiness = rows.last
        #expect(readiness?.label == "Readiness")
        #expect(readiness?.figure == "86")
        #expect(readiness?.detail == "7-day mean 83")
        #expect(readiness?.values.count == 30)
        #expect(readiness?.values.last == .some(nil), "today is not scored yet")
    }

    /// Vital signs have lines only when the window holds them. Hand-worked: yesterday 128/82 and 136/84 mmHg
    /// (means 132/83: stage 1 by either figure, ACC/AHA 2017); SpO2 96 and 98 % on two days (mean 97.0).
    @Test func vitalSignsHaveLinesOnlyForThoseMeasured() {
        #expect(!Self.rows([:]).contains { $0.label == "BP" || $0.label == "SpO2" })
        var yesterday = DayTotals()
        yesterday.add([Field.systolic: .number(128), Field.diastolic: .number(82)])
        yesterday.add([Field.systolic: .number(136), Field.diastolic: .number(84)])
        yesterday.add([Field.oxygenSaturation: .number(98)])
        var before = DayTotals()
        before.add([Field.oxygenSaturation: .number(96)])
        let rows = Self.rows([Self.today.adding(days: -1): yesterday, Self.today.adding(days: -3): before])
        let pressure = rows.first { $0.label == "BP" }
        #expect(pressure?.figure == "132/83 mmHg")
        #expect(pressure?.detail == "stage 1 hypertension (ACC/AHA)")
        #expect(pressure?.values.count == 30)
        let oxygen = rows.first { $0.label == "SpO2" }
        #expect(oxygen?.figure == "98.0 %" && oxygen?.detail == "30-day mean 97.0 %")
        #expect(!rows.contains { $0.label == "Breathing" })
    }

    /// Temperatures in the person's units: 37.0 °C is 98.6 °F for someone who weighs in pounds, and a wrist's
    /// −0.25 °C from its baseline is −0.45 °F (a difference: no 32 added); 36.0 °C the day before makes the
    /// mean 36.5 °C, 97.7 °F.
    @Test func temperaturesAreInFahrenheitWithPounds() {
        var today = DayTotals()
        today.add([Field.bodyTemperature: .number(37.0)])
        today.add([Field.skinTemperatureChange: .number(-0.25)])
        var before = DayTotals()
        before.add([Field.bodyTemperature: .number(36.0)])
        let totals = [Self.today: today, Self.today.adding(days: -1): before]
        let imperial = OverviewRows.make(Profile(massUnit: .lb), weights: WeightSeries(days: Self.first...Self.today, points: []), energy: [],
                                         totals: totals, first: Self.first, today: Self.today, calendar: Self.utc)
        let body = imperial.first { $0.label == "Body temp." }
        #expect(body?.figure == "98.6 °F" && body?.detail == "30-day mean 97.7 °F")
        #expect(imperial.first { $0.label == "Skin temp." }?.figure == "−0.45 °F")
        #expect(Self.rows(totals).first { $0.label == "Body temp." }?.figure == "37.0 °C")
    }

    /// The 2017 ACC/AHA categories at their edges (Whelton et al. 2018, table 6): the higher figure counts.
    @Test(arguments: [(119.0, 79.0, BloodPressureCategory.normal), (120, 79, .elevated), (129, 79, .elevated), (130, 70, .stage1),
                      (118, 80, .stage1), (139, 89, .stage1), (140, 70, .stage2), (118, 90, .stage2), (181, 100, .crisis), (150, 121, .crisis)])
    func bloodPressureCategoriesFollowTheGuideline(systolic: Double, diastolic: Double, category: BloodPressureCategory) {
        #expect(BloodPressureCategory(systolic: systolic, diastolic: diastolic) == category)
    }
}
