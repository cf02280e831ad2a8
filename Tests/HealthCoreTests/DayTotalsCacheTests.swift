import Foundation
import GRDB
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage
@testable import PostgresStorage
import TestSupport

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

    /// On both engines, and with the add, the edit and the delete made by a second store on the same file or
    /// database (another process, another server): a kept day never answers with its old sums.
    @Test(arguments: StoreEngine.available) func aKeptDayIsSummedAgainAfterAnotherStoreAddsEditsOrDeletesInIt(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, service) = try await world.user()
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        let berlin = calendar("Europe/Berlin")
        func meal(_ text: String, _ kcal: Double) -> NewMessage {
            NewMessage(sdid: food.id, ts: date(text, in: berlin).millisecondsSince1970, data: [Field.calories: .number(kcal)])
        }
        let breakfast = try await service.post(meal("2026-11-10 08:00", 700))
        _ = try await service.post(meal("2026-11-11 12:00", 900))
        let days = Day(year: 2026, month: 11, day: 10)...Day(year: 2026, month: 11, day: 12)
        let tenth = Day(year: 2026, month: 11, day: 10), eleventh = Day(year: 2026, month: 11, day: 11)

        let first = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(first[tenth]?[.dietaryEnergy] == SumCount(sum: 700, count: 1))
        // SQLite keeps the two days with readings; PostgreSQL keeps the day without any too, as such.
        #expect(try await world.rowCount("day_totals_cache") == (engine == .postgres ? 3 : 2), "the days asked are kept")
        #expect(try await service.dailyTotals(days: days, calendar: berlin) == first)

        let other: any HealthStore
        switch engine {
        case .sqlite: other = try LocalStore(url: world.folder.file("hmon.sqlite"), passwordHasher: .fastForTests)
        case .postgres: other = try await PostgresStore.open(try PostgresLocation(try #require(world.postgresURL)),
                                                             passwordHasher: .fastForTests, maximumConnections: 2)
        }
        try await other.post(meal("2026-11-10 19:00", 300), userID: user.id)
        #expect(try await service.dailyTotals(days: days, calendar: berlin)[tenth]?[.dietaryEnergy] == SumCount(sum: 1000, count: 2))

        try await other.editReading(id: breakfast, userID: user.id, change: ReadingChange(data: [Field.calories: .number(650)]))
        #expect(try await service.dailyTotals(days: days, calendar: berlin)[tenth]?[.dietaryEnergy] == SumCount(sum: 950, count: 2))

        try await other.deleteReading(id: breakfast, userID: user.id)
        let last = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(last[tenth]?[.dietaryEnergy] == SumCount(sum: 300, count: 1))
        #expect(last[eleventh] == first[eleventh])
    }

    @Test func keptSumsReadBackExactly() {
        var totals = DayTotals()
        totals.add([Field.weight: .number(72.35), Field.calories: .number(0.1 + 0.2), Field.stress: .number(1.0 / 3)])
        #expect(DayTotals(cacheText: totals.cacheText) == totals)
        #expect(DayTotals(cacheText: "garbage") == nil)
    }
}
