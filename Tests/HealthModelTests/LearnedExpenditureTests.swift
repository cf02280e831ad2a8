import Foundation
import Testing
@testable import HealthModel

/// Expenditure learned from intake and the trend: mean intake − trend change × 7,700 kcal/kg per day.
@Suite struct LearnedExpenditureTests {
    private let end = Day(year: 2026, month: 11, day: 28)
    private func day(_ n: Int) -> Day { end.adding(days: n - 27) }  // day(0) … day(27) is the 28-day window

    @Test func aMonthLosingFiftyGramsADayOnTwoThousandKcalSpendsTwoThousandThreeHundredEightyFive() {
        // Trend 80 − 0.05 × i over 28 days: −1.35 kg in 27 days = −0.05 kg/day = −385 kcal/day stored.
        // Intake 2,000 every day → expenditure 2,000 − (−385) = 2,385 kcal/day.
        let trend = (0..<28).map { TrendDay(day: day($0), weightKg: 80 - 0.05 * Double($0), trendKg: 80 - 0.05 * Double($0)) }
        let intake = Dictionary(uniqueKeysWithValues: (0..<28).map { (day($0), 2000.0) })
        guard case let .learned(kcal, foodDays, weighInDays) = LearnedExpenditure.estimate(trend: trend, intakeKcal: intake, through: end) else {
            Issue.record("expected a learned figure"); return
        }
        #expect(abs(kcal - 2385) < 1e-6)
        #expect(foodDays == 28)
        #expect(weighInDays == 28)
    }

    @Test func aSteadyWeightMeansExpenditureIsTheMeanIntakeOfTheLoggedDays() {
        // Weighed every other day at 70 kg (trend flat); food logged on 20 days, 10 at 1,800 and 10 at 2,400;
        // the 8 days without a log do not count as zero: mean = (18,000 + 24,000) / 20 = 2,100.
        let trend = WeightTrendBuilder.days(weighIns: stride(from: 0, to: 28, by: 2).map { (day($0), 70.0) } + [(day(27), 70.0)])
        var intake: [Day: Double] = [:]
        for n in 0..<10 { intake[day(n)] = 1800 }
        for n in 10..<20 { intake[day(n)] = 2400 }
        #expect(LearnedExpenditure.estimate(trend: trend, intakeKcal: intake, through: end)
                == .learned(kcalPerDay: 2100, foodDays: 20, weighInDays: 15))
    }

    @Test func thirteenDaysOfFoodLogsAreNotEnough() {
        let trend = WeightTrendBuilder.days(weighIns: (0..<28).map { (day($0), 70.0) })
        let intake = Dictionary(uniqueKeysWithValues: (0..<13).map { (day($0), 2000.0) })
        #expect(LearnedExpenditure.estimate(trend: trend, intakeKcal: intake, through: end)
                == .needsMoreData(foodDays: 13, weighInDays: 28))
    }

    @Test func daysBeforeTheWindowDoNotCount() {
        // Forty days of weigh-ins and logs, the first twelve at 5,000 kcal: only the last 28 (at 2,000) count.
        let trend = WeightTrendBuilder.days(weighIns: (-12..<28).map { (day($0), 70.0) })
        var intake = Dictionary(uniqueKeysWithValues: (-12..<28).map { (day($0), 2000.0) })
        for n in -12..<0 { intake[day(n)] = 5000 }
        #expect(LearnedExpenditure.estimate(trend: trend, intakeKcal: intake, through: end)
                == .learned(kcalPerDay: 2000, foodDays: 28, weighInDays: 28))
    }
}
