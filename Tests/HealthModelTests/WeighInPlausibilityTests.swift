import Foundation
import Testing
@testable import HealthModel

/// The typo check: a weigh-in far from the trend of the ones before it, worked out by hand.
@Suite struct WeighInPlausibilityTests {
    let today = Day(year: 2026, month: 11, day: 26)

    /// Weigh-ins of `kg` on each of the `days` days before today.
    func steady(_ kg: Double, days: Int = 5) -> [(day: Day, kg: Double)] {
        (1...days).map { (day: today.adding(days: -$0), kg: kg) }
    }

    @Test func aSwappedDigitIsFarAndSaysByHowMuchUnderTheTrend() throws {
        // Trend 72.2 (every weigh-in 72.2); 27.2 is 45.0 under it, far past max(5 % × 72.2 = 3.61, 2) + 1/7 kg.
        let far = try #require(WeighInPlausibility.far(weightKg: 27.2, on: today, weighIns: steady(72.2)))
        #expect(abs(far.trendKg - 72.2) < 1e-9)
        #expect(abs(far.differenceKg + 45.0) < 1e-9)
        #expect(far.sentence(in: .kg) == "27.2 kg is 45.0 kg under your trend (72.2 kg)")
        // In pounds: 27.2 kg = 60.0 lb, 45 kg = 99.2 lb, 72.2 kg = 159.2 lb.
        #expect(far.sentence(in: .lb) == "60.0 lb is 99.2 lb under your trend (159.2 lb)")
    }

    @Test func aRealMorningSwingIsNear() {
        // 72.2 → 73.9 is 2.4 %: within a day's water and food.
        #expect(WeighInPlausibility.far(weightKg: 73.9, on: today, weighIns: steady(72.2)) == nil)
        // A wrong last digit (73.2 for 72.2) cannot be told from a swing.
        #expect(WeighInPlausibility.far(weightKg: 73.2, on: today, weighIns: steady(72.2)) == nil)
    }

    @Test func theBoundIsFivePercentOrTwoKilogramsWhicheverIsMore() throws {
        // 80 kg, weighed yesterday: bound = 5 % × 80 + 1 kg × 1/7 week = 4.143 kg.
        #expect(WeighInPlausibility.far(weightKg: 84.1, on: today, weighIns: steady(80)) == nil)
        let over = try #require(WeighInPlausibility.far(weightKg: 84.2, on: today, weighIns: steady(80)))
        #expect(over.sentence(in: .kg) == "84.2 kg is 4.2 kg over your trend (80.0 kg)")
        // 30 kg: 5 % is 1.5 kg, so the 2 kg floor holds: bound 2.143 kg.
        #expect(WeighInPlausibility.far(weightKg: 32.1, on: today, weighIns: steady(30)) == nil)
        #expect(WeighInPlausibility.far(weightKg: 32.2, on: today, weighIns: steady(30)) != nil)
    }

    @Test func theBoundWidensOneKilogramPerWeekSinceTheLastWeighIn() {
        // Last weighed 28 days ago at 80 kg: bound = 4 + 4 × 1 = 8 kg; 73 kg (7 down) is a real loss.
        let fourWeeksAgo = [(day: today.adding(days: -29), kg: 80.0), (day: today.adding(days: -28), kg: 80.0)]
        #expect(WeighInPlausibility.far(weightKg: 73, on: today, weighIns: fourWeeksAgo) == nil)
        #expect(WeighInPlausibility.far(weightKg: 71.9, on: today, weighIns: fourWeeksAgo) != nil)
    }

    @Test func withoutATrendThereIsNoCheck() {
        // No weigh-in, or one: nothing to judge by.
        #expect(WeighInPlausibility.far(weightKg: 27.2, on: today, weighIns: []) == nil)
        #expect(WeighInPlausibility.far(weightKg: 27.2, on: today, weighIns: steady(72.2, days: 1)) == nil)
        // Weigh-ins older than the look-back do not count.
        let long = [(day: today.adding(days: -200), kg: 72.2), (day: today.adding(days: -199), kg: 72.2)]
        #expect(WeighInPlausibility.far(weightKg: 27.2, on: today, weighIns: long) == nil)
    }

    @Test func aCorrectionIsJudgedByTheWeighInsBeforeItsDayNotByItself() {
        // The typo itself (27.2 today) is in the weigh-ins: it is left out, so correcting it to 72.4 passes.
        let withTypo = steady(72.2) + [(day: today, kg: 27.2)]
        #expect(WeighInPlausibility.far(weightKg: 72.4, on: today, weighIns: withTypo) == nil)
    }
}
