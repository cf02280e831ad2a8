import Foundation
import GRDB
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// The per-day sums the store keeps for the insights: the same answer as summing afresh, and a day
/// summed again as soon as a reading lands in it, from this connection or another one.
@Suite struct DayTotalsCacheTests {
    @Test func aKeptDayIsSummedAgainWhenAReadingLandsInIt() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        let watch = try await world.device(.activityTracker, named: "Watch", for: service)
        let berlin = calendar("Europe/Berlin")
        func post(_ device: Device, _ text: String, _ data: [String: FieldValue]) async throws {
            try await service.post(NewMessage(sdid: device.id, ts: date(text, in: berlin).millisecondsSince1970, data: data))
        }
        try await post(food, "2026-11-10 12:00", [Field.calories: .number(700)])
        try await post(watch, "2026-11-10 18:00", [Field.steps: .number(4000)])
        try await post(food, "2026-11-11 12:00", [Field.calories: .number(900)])
        let days = Day(year: 2026, month: 11, day: 10)...Day(year: 2026, month: 11, day: 12)

        let first = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(try await rowCount("day_totals_cache", in: world.store) == 2, "the two days with readings are kept")
        let again = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(again == first)
        #expect(first[Day(year: 2026, month: 11, day: 10)]?[.steps] == SumCount(sum: 4000, count: 1))

        // Another process (here: another store on the same file) adds a meal to the 10th.
        let other = try LocalStore(url: world.databaseURL, passwordHasher: .fastForTests)
        let userID = try #require(service.userID)
        try await other.post(NewMessage(sdid: food.id, ts: date("2026-11-10 19:00", in: berlin).millisecondsSince1970,
                                        data: [Field.calories: .number(300)]), userID: userID)
        let after = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(after[Day(year: 2026, month: 11, day: 10)]?[.dietaryEnergy] == SumCount(sum: 1000, count: 2))
        #expect(after[Day(year: 2026, month: 11, day: 11)] == first[Day(year: 2026, month: 11, day: 11)])

        // Another time zone's days are other days, not the kept ones.
        let losAngeles = try await service.dailyTotals(days: days, calendar: calendar("America/Los_Angeles"))
        #expect(losAngeles[Day(year: 2026, month: 11, day: 10)]?[.dietaryEnergy] == SumCount(sum: 1000, count: 2))
    }

    @Test func keptSumsReadBackExactly() {
        var totals = DayTotals()
        totals.add([Field.weight: .number(72.35), Field.calories: .number(0.1 + 0.2), Field.stress: .number(1.0 / 3)])
        #expect(DayTotals(cacheText: totals.cacheText) == totals)
        #expect(DayTotals(cacheText: "garbage") == nil)
    }
}
