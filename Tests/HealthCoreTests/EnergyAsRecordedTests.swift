import Foundation
import GRDB
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// Food energy is kept as it was recorded (kcal as a Double); only what is shown is rounded.
@Suite struct EnergyAsRecordedTests {
    @Test func aMealOfHalfAKilocalorieIsStoredAndSummedExactly() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let food = try await world.device(.calorieTracker, named: "Food log", for: service)
        let cal = calendar()
        let now = date("2026-11-20 20:00")
        for (time, kcal) in [("2026-11-20 08:00", 650.5), ("2026-11-20 12:30", 120.25), ("2026-11-20 19:00", 2000 / 4.184)] {
            try await world.store.post(NewMessage(sdid: food.id, ts: date(time).millisecondsSince1970,
                                                  data: [Field.calories: .number(kcal)]), userID: food.uid, now: now)
        }
        let meals = try await service.lastMessages(device: food.id, count: 10, field: Field.calories)
        #expect(meals.compactMap { $0.data[Field.calories]?.number } == [2000 / 4.184, 120.25, 650.5])

        // 650.5 + 120.25 + 478.0114722753346 = 1248.7614722753346 kcal; rounding each meal would say 1249.
        let summary = try await service.energySummary(for: Day(now, in: cal), now: now, calendar: cal)
        #expect(abs(summary.consumed - 1248.7614722753346) < 1e-9)
    }

    @Test func aStoreMadeWhenFoodLogsKeptWholeKilocaloriesTakesDecimalsAfterOpening() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("old.sqlite")
        // A store as hmon left it before: the Calorie Tracker's calories an Integer field, migration v3 not run.
        do {
            let store = try LocalStore(url: url, passwordHasher: .fastForTests)
            try await store.write { db in
                try db.execute(sql: "UPDATE device_type_fields SET type = 'Integer' WHERE name = 'calories'")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3:%'")
            }
            let old = try await store.manifest(ofType: BuiltInDeviceType.calorieTracker.deviceType.id)
            try #require(old.field(Field.calories)?.type == .integer)
        }
        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        let manifest = try await store.manifest(ofType: BuiltInDeviceType.calorieTracker.deviceType.id)
        #expect(manifest.field(Field.calories)?.type == .double)
        let user = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let service = LocalHealthService(store: store, userID: user.id)
        let food = try await service.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id)
        try await service.post(NewMessage(sdid: food.id, data: [Field.calories: .number(650.5)]))
        #expect(try await service.lastMessages(device: food.id, count: 1, field: nil).first?.data[Field.calories] == .number(650.5))
    }
}
