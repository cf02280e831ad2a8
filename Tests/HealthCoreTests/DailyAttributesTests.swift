import Foundation
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// One value per attribute per local day, and the medians per weekday, on hand-worked cases.
@Suite struct DailyAttributesTests {
    static let utc = calendar("UTC")

    static func totals(_ entries: [(Day, [String: FieldValue])]) -> [Day: DayTotals] {
        var result: [Day: DayTotals] = [:]
        for (day, data) in entries { result[day, default: DayTotals()].add(data) }
        return result
    }

    @Test func weekdayMediansLeaveMissingDaysOut() throws {
        // Two weeks, Monday 2026-11-02 to Sunday 2026-11-15, three days without a food log.
        let eaten: [Double?] = [2000, 1800, nil, 2100, 2500, 3000, 2200,
                                2200, nil, 1900, 2100, 2600, 3400, nil]
        let first = Day(year: 2026, month: 11, day: 2)
        #expect(first.weekdayIndex == 0, "2026-11-02 is a Monday")
        let totals = Self.totals(eaten.enumerated().compactMap { i, kcal in kcal.map { (first.adding(days: i), [Field.calories: .number($0)]) } })
        let last = first.adding(days: 13)
        let daily = DailyAttributes.build(totals: totals, days: first...last, profile: Profile(), calendar: Self.utc)
        let averages = try #require(AttributeAverages.compute(.energy, in: daily, through: last, windowDays: 14))

        // The 11 logged days sorted: 1800 1900 2000 2100 2100 2200 2200 2500 2600 3000 3400; the 6th is 2200.
        #expect(averages.overall == 2200)
        #expect(averages.count == 11)
        // Monday (2000, 2200) → 2100; Tuesday 1800; Wednesday 1900; Thursday (2100, 2100); Friday (2500, 2600)
        // → 2550; Saturday (3000, 3400) → 3200; Sunday 2200 (the second Sunday has no log, not a zero).
        #expect(averages.weekdays == [2100, 1800, 1900, 2100, 2550, 3200, 2200])
        #expect(averages.weekdayCounts == [2, 1, 1, 2, 2, 2, 1])
    }

    @Test func aWindowWithoutValuesHasNoAverage() {
        let day = Day(year: 2026, month: 11, day: 2)
        let daily = DailyAttributes.build(totals: [:], days: day...day.adding(days: 10), profile: Profile(), calendar: Self.utc)
        #expect(AttributeAverages.compute(.steps, in: daily, through: day.adding(days: 10)) == nil)
    }

    @Test func eachAttributeFollowsItsDailyRule() throws {
        let d0 = Day(year: 2026, month: 11, day: 10)
        let profile = Profile(birthDate: Day(year: 1990, month: 1, day: 1), sex: .female, heightCm: 170)
        let totals = Self.totals([
            (d0, [Field.weight: .number(70), Field.fatRatio: .number(30)]),
            (d0, [Field.weight: .number(71), Field.fatRatio: .number(31)]),
            (d0, [Field.calories: .number(1500)]), (d0, [Field.calories: .number(500)]),
            (d0, [Field.activeEnergy: .number(200)]), (d0, [Field.activeEnergy: .number(100)]),
            (d0, [Field.steps: .number(4000)]), (d0, [Field.steps: .number(2500)]),
            (d0.adding(days: 1), [Field.basalEnergy: .number(1600), Field.restingHeartRate: .number(58)]),
            (d0.adding(days: 1), [Field.heartRateVariabilitySDNN: .number(40)]),
        ])
        let daily = DailyAttributes.build(totals: totals, days: d0...d0.adding(days: 40), profile: profile, calendar: Self.utc)

        #expect(daily.value(.weight, on: d0) == 70.5)                         // the day's average
        #expect(daily.value(.weight, on: d0.adding(days: 30)) == 70.5)        // carried 30 days…
        #expect(daily.value(.weight, on: d0.adding(days: 31)) == nil)         // …and no further
        #expect(daily.value(.weighIns, on: d0) == 2)
        #expect(daily.value(.weighIns, on: d0.adding(days: 1)) == 0)          // a day without is a zero, not unknown
        #expect(daily.value(.bodyFat, on: d0) == 30.5)
        #expect(daily.value(.bodyFat, on: d0.adding(days: 1)) == nil)         // body fat is not carried
        #expect(daily.value(.energy, on: d0) == 2000)                         // sums
        #expect(daily.value(.energy, on: d0.adding(days: 1)) == nil)          // no food log is unknown, not a fast
        #expect(daily.value(.activeEnergy, on: d0) == 300)
        #expect(daily.value(.steps, on: d0) == 6500)
        // Mifflin-St Jeor, female, 70.5 kg, 170 cm, 36 years: 705 + 1062.5 − 180 − 161 = 1426.5 kcal.
        #expect(daily.value(.restingEnergy, on: d0) == 1426.5)
        #expect(daily.value(.netEnergy, on: d0) == 2000 - 300 - 1426.5)
        #expect(daily.value(.restingEnergy, on: d0.adding(days: 1)) == 1600)  // recorded basal energy wins
        #expect(daily.value(.netEnergy, on: d0.adding(days: 1)) == nil)
        #expect(daily.value(.restingHeartRate, on: d0.adding(days: 1)) == 58)
        #expect(daily.value(.heartRateVariability, on: d0.adding(days: 1)) == 40)  // SDNN: no RMSSD anywhere
    }

    @Test func changesAreTakenBetweenWeighInsOnly() {
        let d0 = Day(year: 2026, month: 11, day: 10)
        let totals = Self.totals([(d0, [Field.weight: .number(80)]), (d0.adding(days: 1), [Field.weight: .number(79.5)]),
                                  (d0.adding(days: 4), [Field.weight: .number(79)]), (d0.adding(days: 5), [Field.weight: .number(79.2)])])
        let daily = DailyAttributes.build(totals: totals, days: d0...d0.adding(days: 5), profile: Profile(), calendar: Self.utc)
        let changes = daily.correlated(.weight).map { $0.isNaN ? nil : ($0 * 10).rounded() / 10 }
        // Day 4 follows carried days: its change spans four days, so it is left out rather than put on one day.
        #expect(changes == [nil, -0.5, nil, nil, nil, 0.2])
    }

    /// Readings go to the local day of the calendar asked with, across midnight and a daylight-saving
    /// change, summed by the store itself (a real SQLite file).
    @Test func theStoreSumsReadingsIntoLocalDaysAcrossMidnightAndDST() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        let berlin = calendar("Europe/Berlin")
        // 2026-03-29 is the spring change in Berlin: a 23-hour day.
        for (text, kcal) in [("2026-03-28 23:59", 100.0), ("2026-03-29 00:01", 200), ("2026-03-29 23:59", 400),
                             ("2026-03-30 00:00", 800)] {
            try await service.post(NewMessage(sdid: food.id, ts: date(text, in: berlin).millisecondsSince1970,
                                              data: [Field.calories: .number(kcal)]))
        }
        let days = Day(year: 2026, month: 3, day: 28)...Day(year: 2026, month: 3, day: 30)
        let inBerlin = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(inBerlin[Day(year: 2026, month: 3, day: 28)]?[.dietaryEnergy] == SumCount(sum: 100, count: 1))
        #expect(inBerlin[Day(year: 2026, month: 3, day: 29)]?[.dietaryEnergy] == SumCount(sum: 600, count: 2))
        #expect(inBerlin[Day(year: 2026, month: 3, day: 30)]?[.dietaryEnergy] == SumCount(sum: 800, count: 1))

        // The same instants read in New York (already on daylight time since 2026-03-08: 5 hours behind
        // Berlin before Berlin's change, 6 after): each lands in the afternoon or evening before.
        let newYork = try await service.dailyTotals(days: days, calendar: calendar("America/New_York"))
        #expect(newYork[Day(year: 2026, month: 3, day: 28)]?[.dietaryEnergy] == SumCount(sum: 300, count: 2))
        #expect(newYork[Day(year: 2026, month: 3, day: 29)]?[.dietaryEnergy] == SumCount(sum: 1200, count: 2))
        #expect(newYork[Day(year: 2026, month: 3, day: 30)] == nil)

        // The pure grouping agrees with the store's.
        let readings: [(date: Date, data: [String: FieldValue])] = [
            (date("2026-03-29 00:01", in: berlin), [Field.calories: .number(200)]),
            (date("2026-03-29 23:59", in: berlin), [Field.calories: .number(400)]),
        ]
        #expect(DayTotals.byDay(readings, calendar: berlin)[Day(year: 2026, month: 3, day: 29)]?[.dietaryEnergy] == SumCount(sum: 600, count: 2))
    }

    /// Vital signs are each their day's mean, and Exist sees SpO2 as a fraction, as its percentage type is:
    /// a morning and an evening blood pressure of 128/84 and 120/78 give 124; SpO2 97 % and 95 % give 96 %
    /// (0.96 to Exist); one breathing rate of 14.9 and one skin temperature change of −0.1 °C are themselves.
    @Test func vitalSignsAreTheirDaysMean() throws {
        let day = Day(year: 2026, month: 11, day: 20)
        let totals = Self.totals([
            (day, [Field.systolic: .number(128), Field.diastolic: .number(84)]),
            (day, [Field.systolic: .number(120), Field.diastolic: .number(78)]),
            (day, [Field.oxygenSaturation: .number(97)]), (day, [Field.oxygenSaturation: .number(95)]),
            (day, [Field.respiratoryRate: .number(14.9)]),
            (day, [Field.skinTemperatureChange: .number(-0.1)]),
        ])
        let daily = DailyAttributes.build(totals: totals, days: day...day, profile: Profile(), calendar: Self.utc)
        #expect(daily.value(.bloodPressure, on: day) == 124)
        #expect(daily.value(.oxygenSaturation, on: day) == 96)
        #expect(InsightAttribute.oxygenSaturation.existShown(96) == 0.96)
        #expect(daily.value(.respiratoryRate, on: day) == 14.9)
        #expect(daily.value(.skinTemperatureChange, on: day) == -0.1)
        #expect(InsightAttribute.bloodPressure.writeTarget == nil, "a vital sign is read from its devices, not written through Exist")
    }
}

