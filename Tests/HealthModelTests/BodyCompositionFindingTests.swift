import Foundation
import Testing
@testable import HealthModel

/// The insights' finding on the week's body composition: the weekly changes of `BodyCompositionSummary`,
/// on a trend made straight by hand so its slopes are exact.
@Suite struct BodyCompositionFindingTests {
    private let today = Day(year: 2026, month: 11, day: 20)

    /// Eight days ending `daysAgo` before today: body fat 25 − 0.05 a day (−0.35 points a week), lean mass
    /// 60 + 0.02 kg a day (+0.14 kg a week).
    private func straightTrend(endingDaysAgo daysAgo: Int = 0, days: Int = 8, fatPerDay: Double = -0.05) -> [BodyCompositionDay] {
        let first = today.adding(days: -(daysAgo + days - 1))
        return (0..<days).map { i in
            let x = Double(i)
            return BodyCompositionDay(day: first.adding(days: i), measured: nil,
                                      trend: BodyComposition(fatPercent: 25 + fatPerDay * x, fatMassKg: 20 - 0.04 * x,
                                                             leanMassKg: 60 + 0.02 * x))
        }
    }

    @Test func theWeekSaysWhichWayBodyFatAndLeanMassMove() throws {
        let finding = try #require(Findings.compositionWeek(straightTrend(), today: today, profile: Profile()))
        #expect(finding.text == "Your body fat is going down 0.35 pt/week, lean mass up 0.14 kg/week")
        #expect(finding.typeName == "body_fat_trend_week")
        #expect(finding.period == .week)
        #expect(finding.date == today)
    }

    @Test func aChangeThatShowsAsZeroIsHoldingSteady() throws {
        // 0.0005 a day is 0.0035 points a week: 0.00 as written.
        let finding = try #require(Findings.compositionWeek(straightTrend(fatPerDay: 0.0005), today: today, profile: Profile()))
        #expect(finding.text == "Your body fat is holding steady, lean mass up 0.14 kg/week")
    }

    @Test func leanMassIsInTheProfilesUnit() throws {
        // 0.14 kg = 0.3086 lb.
        let finding = try #require(Findings.compositionWeek(straightTrend(), today: today, profile: Profile(massUnit: .lb)))
        #expect(finding.text.hasSuffix("lean mass up 0.31 lb/week"))
    }

    @Test func aTrendThatEndedOverAWeekAgoOrIsShorterThanAWeekSaysNothing() {
        #expect(Findings.compositionWeek(straightTrend(endingDaysAgo: 8), today: today, profile: Profile()) == nil)
        #expect(Findings.compositionWeek(straightTrend(endingDaysAgo: 7), today: today, profile: Profile()) != nil)
        #expect(Findings.compositionWeek(straightTrend(days: 7), today: today, profile: Profile()) == nil)
    }
}
