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
}
