import Foundation
import ModelTestSupport
import Testing
@testable import HealthModel

@Suite struct EnergyMathTests {
    @Test func mifflinStJeorMatchesHandComputedValues() {
        // 10 × 80 + 6.25 × 180 − 5 × 40 + 5 = 1730
        #expect(BMRFormula.mifflinStJeor.kcalPerDay(weightKg: 80, heightCm: 180, ageYears: 40, sex: .male) == 1730)
        // 10 × 60 + 6.25 × 165 − 5 × 30 − 161 = 1320.25
        #expect(BMRFormula.mifflinStJeor.kcalPerDay(weightKg: 60, heightCm: 165, ageYears: 30, sex: .female) == 1320.25)
    }

    @Test func harrisBenedictUsesThe1919Coefficients() {
        // 66.4730 + 13.7516 × 80 + 5.0033 × 180 − 6.7550 × 40 = 1796.995
        let man = BMRFormula.harrisBenedict.kcalPerDay(weightKg: 80, heightCm: 180, ageYears: 40, sex: .male)
        #expect(abs(man - 1796.995) < 1e-9)
        // 655.0955 + 9.5634 × 60 + 1.8496 × 165 − 4.6756 × 30 = 1393.8155
        let woman = BMRFormula.harrisBenedict.kcalPerDay(weightKg: 60, heightCm: 165, ageYears: 30, sex: .female)
        #expect(abs(woman - 1393.8155) < 1e-9)
    }

    @Test func katchMcArdleUsesLeanMassAndFallsBackWithoutIt() {
        #expect(BMRFormula.katchMcArdle.kcalPerDay(weightKg: 70, heightCm: 170, ageYears: 30, sex: .male, leanMassKg: 50) == 1450)
        #expect(BMRFormula.katchMcArdle.kcalPerDay(weightKg: 80, heightCm: 180, ageYears: 40, sex: .male) == 1730)
        #expect(BMRFormula.katchMcArdle.usable(leanMassKg: nil) == .mifflinStJeor)
    }

    private let profile = Profile(birthDate: Day(iso: "1996-06-01"), sex: .female, heightCm: 165)
    private let day = Day(year: 2026, month: 11, day: 20)
    private let totals = EnergyTotals(active: 300, consumed: 1800, recordedBasal: nil)

    @Test func restingEnergyTodayIsTheBMRTimesTheShareOfTheDayGoneBy() throws {
        let cal = calendar()
        let morning = EnergyCalculator.summary(day: day, profile: profile, weightKg: 60, totals: totals,
                                               now: date("2026-11-20 06:00"), calendar: cal)
        let restingByMorning: Double = 1320.25 / 4
        #expect(morning.resting == restingByMorning)
        #expect(morning.restingSource == .estimated(.mifflinStJeor, bmrPerDay: 1320.25, fractionOfDay: 0.25))
        let evening = EnergyCalculator.summary(day: day, profile: profile, weightKg: 60, totals: totals,
                                               now: date("2026-11-20 18:00"), calendar: cal)
        let restingByEvening: Double = 1320.25 * 0.75
        #expect(evening.resting == restingByEvening)
        #expect(evening.net == 1500 - restingByEvening)
        #expect(evening.missing.isEmpty)
    }

    @Test func aPastDayCountsTheWholeBMRAndAFutureDayNone() {
        let cal = calendar()
        let past = EnergyCalculator.summary(day: day, profile: profile, weightKg: 60, totals: totals,
                                            now: date("2026-11-23 09:00"), calendar: cal)
        #expect(past.resting == 1320.25)
        let future = EnergyCalculator.summary(day: day, profile: profile, weightKg: 60, totals: totals,
                                              now: date("2026-11-19 23:59"), calendar: cal)
        #expect(future.resting == 0)
    }

    @Test func aDaylightSavingDayIsProratedOverItsRealLength() {
        // In Berlin, 2026-03-29 has 23 hours; at noon 11 of them have gone by.
        let fraction = EnergyCalculator.fractionOfDay(Day(year: 2026, month: 3, day: 29), now: date("2026-03-29 12:00"),
                                                      calendar: calendar())
        #expect(abs(fraction - 11.0 / 23.0) < 1e-12)
    }

    @Test func recordedBasalEnergyIsUsedInsteadOfTheEstimate() {
        let summary = EnergyCalculator.summary(
            day: day, profile: Profile(), weightKg: nil,
            readings: [["basalEnergy": .number(600), "activeEnergy": .number(100)], ["basalEnergy": .number(50)],
                       ["calories": .number(700), "comments": .text("lunch")]],
            now: date("2026-11-20 12:00"), calendar: calendar())
        #expect(summary.resting == 650)
        #expect(summary.restingSource == .recorded)
        #expect(summary.active == 100)
        #expect(summary.consumed == 700)
        #expect(summary.net == -50)
    }

    @Test func anIncompleteProfileSaysWhatIsMissingInsteadOfAZero() {
        let summary = EnergyCalculator.summary(day: day, profile: Profile(heightCm: 170), weightKg: nil, totals: totals,
                                               now: date("2026-11-20 12:00"), calendar: calendar())
        #expect(summary.missing == [.birthDate, .sex, .weight])
        #expect(summary.resting == nil)
        #expect(summary.net == nil)
        #expect(summary.consumed == 1800)
    }

    @Test func ageCountsWholeYearsAndTheBirthdayItself() {
        let born = Day(year: 1988, month: 4, day: 12)
        #expect(EnergyCalculator.age(bornOn: born, on: Day(year: 2026, month: 4, day: 11)) == 37)
        #expect(EnergyCalculator.age(bornOn: born, on: Day(year: 2026, month: 4, day: 12)) == 38)
    }

    @Test func kilojoulesAreKilocaloriesTimes4184() {
        #expect(EnergyUnit.kJ.fromKcal(1000) == 4184)
        #expect(abs(EnergyUnit.kJ.toKcal(4184) - 1000) < 1e-9)
    }
}
