import Foundation
import Testing
@testable import HealthModel

/// Issue 28, item 3: insights without self-made artefacts. Which pairs are never tested (one computed from
/// the other, or both from the same reading) and which are shown apart as expected (they measure one thing
/// twice) comes from one list, `InsightAttribute.parts` and `sameMeasure`; these cases are the issue's.
@Suite struct InsightPairRelationTests {
    @Test func aPairComputedFromTheSameReadingIsNeverTested() {
        // "On days after you weigh in more often, your resting energy goes up more": resting energy is
        // recomputed from the weight on weigh-in days only, so the pair moves together by construction.
        #expect(InsightAttribute.weighIns.relation(to: .restingEnergy) == .derived)
        // Net energy comes from weight too, through resting energy.
        #expect(InsightAttribute.netEnergy.allParts.contains(.weight))
        #expect(InsightAttribute.netEnergy.relation(to: .weight) == .derived)
        #expect(InsightAttribute.weight.relation(to: .netEnergy) == .derived, "either way round")
        #expect(InsightAttribute.netEnergy.relation(to: .energy) == .derived)
        #expect(InsightAttribute.restingEnergy.relation(to: .weight) == .derived)
        // Measured together: Welltory's stress is its score of the same measurement's HRV.
        #expect(InsightAttribute.heartRateVariability.relation(to: .stress) == .derived)
        #expect(InsightAttribute.stress.relation(to: .heartRateVariability) == .derived, "either way round")
    }

    @Test func pairsThatMeasureOneThingTwiceAreExpected() {
        #expect(InsightAttribute.steps.relation(to: .activeEnergy) == .sameMeasure)
        // Net energy and steps, through active energy.
        #expect(InsightAttribute.netEnergy.relation(to: .steps) == .sameMeasure)
        #expect(InsightAttribute.steps.relation(to: .netEnergy) == .sameMeasure)
    }

    @Test func independentPairsStayFindings() {
        #expect(InsightAttribute.energy.relation(to: .weight) == .independent)
        #expect(InsightAttribute.heartRateVariability.relation(to: .activeEnergy) == .independent)
        #expect(InsightAttribute.stress.relation(to: .activeEnergy) == .independent)
        #expect(InsightAttribute.steps.relation(to: .weight) == .independent)
        // A night's sleep against the morning's HRV, the day's energy and the weight's change: measured apart.
        #expect(InsightAttribute.sleep.relation(to: .heartRateVariability) == .independent)
        #expect(InsightAttribute.sleep.relation(to: .energy) == .independent)
        #expect(InsightAttribute.sleep.relation(to: .netEnergy) == .independent)
        #expect(InsightAttribute.sleep.relation(to: .weight) == .independent)
    }

    /// A night belongs to the day it ends, so the same day's HRV is the morning after it: the scan's
    /// same-day pair is "sleep, then the next morning's HRV".
    @Test func aNightsSleepLandsOnTheDayItEndedBesideThatMorningsHRV() {
        let day = Day(year: 2026, month: 11, day: 20)
        var totals = DayTotals()
        totals.add([ReadingKind.sleep.field: .number(450), ReadingKind.deepSleep.field: .number(60)])
        totals.add([Field.heartRateVariabilitySDNN: .number(48)])
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let daily = DailyAttributes.build(totals: [day: totals], days: day...day, profile: Profile(), calendar: utc)
        #expect(daily.value(.sleep, on: day) == 450)
        #expect(daily.value(.heartRateVariability, on: day) == 48)
        #expect(InsightAttribute.sleep.quantityKind == .minutes && !InsightAttribute.sleep.isTrended)
    }

    /// Every pair the scan can report: none derived; the expected ones never among the ranked correlations.
    @Test func theReportRanksNoDerivedOrExpectedPair() {
        for a in InsightAttribute.allCases {
            for b in InsightAttribute.allCases where a.isIndependent(of: b) {
                #expect(a.relation(to: b) != .derived)
            }
        }
        let steps = AttributeCorrelation(attribute: .activeEnergy, attribute2: .steps, offset: 0, value: 0.9, p: 1e-9, q: 1e-8,
                                         days: 180, date: Day(year: 2026, month: 11, day: 20))
        #expect(steps.isExpected)
    }
}
