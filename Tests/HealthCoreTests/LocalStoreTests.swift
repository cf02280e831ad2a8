import Foundation
import GRDB
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

@Suite struct LocalStoreTests {
    @Test func aNewStoreHasEveryTableAndTheBuiltInDeviceTypes() async throws {
        let world = try TestWorld()
        let types = try await world.store.deviceTypes()
        #expect(Set(types.map(\.name)) == ["Withings Device", "Calorie Tracker", "Activity Tracker", "HRV Meter", "Scale"])
        let withings = try #require(types.first { $0.id == "dt29673f0481b4401bb73a622353b96150" })
        #expect(withings.uniqueName == "withings_device")
        let manifest = try await world.store.manifest(ofType: withings.id)
        #expect(manifest.field("weight") == FieldSpec(name: "weight", type: .double, unit: "kg"))
        #expect(manifest.field("heartRate")?.unit == "b/min")
        let calories = try await world.store.manifest(ofType: BuiltInDeviceType.calorieTracker.deviceType.id)
        #expect(calories.field("calories")?.type == .double)
        #expect(calories.field("comments")?.type == .string)
        let tables = try await world.store.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables.isSuperset(of: ["users", "profiles", "device_types", "device_type_fields", "devices", "messages",
                                      "tokens", "oauth_clients"]))
    }

    @Test func theDashboardsStoreKeepsASmallerPageCacheOnEveryConnection() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("store.sqlite")
        let standard = try LocalStore(url: url, passwordHasher: .fastForTests)
        let interactive = try LocalStore(url: url, passwordHasher: .fastForTests, footprint: .interactive)
        func cacheSize(_ store: LocalStore) async throws -> (read: Int?, written: Int?) {
            (try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") },
             try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") })
        }
        let small = try await cacheSize(interactive)
        #expect(small.read == -512 && small.written == -512)
        let usual = try await cacheSize(standard)
        #expect(usual.read == -2000 && usual.written == -2000)
    }

    @Test func theStoreIsInWALModeWithForeignKeysOn() async throws {
        let world = try TestWorld()
        let (mode, foreignKeys) = try await world.store.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(mode == "wal")
        #expect(foreignKeys == true)
    }

    @Test func reopeningAStoreKeepsItsDataAndDoesNotMigrateTwice() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("nested/deeper/hmon.sqlite")
        do {
            let store = try LocalStore(url: url, passwordHasher: .fastForTests)
            _ = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        }
        let again = try LocalStore(url: url, passwordHasher: .fastForTests)
        #expect(try await again.users().map(\.name) == ["alice"])
        #expect(try await again.deviceTypes().count == BuiltInDeviceType.allCases.count)
    }

    @Test func aNewStoreFileIsReadableOnlyByItsOwner() throws {
        let world = try TestWorld()
        let mode = try FileManager.default.attributesOfItem(atPath: world.store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedWithAClearMessageAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("notes.sqlite")
        let text = String(repeating: "these are my notes, not a database\n", count: 200)
        try text.write(to: url, atomically: true, encoding: .utf8)
        let error = #expect(throws: HealthError.self) { try LocalStore(url: url, passwordHasher: .fastForTests) }
        #expect(error == .unusableStore(UnusableStore(path: url.path, reason: .notSQLite)))
        #expect(error?.message == "\(url.path) is not an hmon database (not an SQLite file)")
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }

    @Test func anotherProgramsSQLiteDatabaseIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("other.sqlite")
        do {
            let other = try DatabaseQueue(path: url.path)
            try other.write { db in try db.execute(sql: "CREATE TABLE recipes (name TEXT)") }
            try other.close()
        }
        let before = try Data(contentsOf: url)
        let error = #expect(throws: HealthError.self) { try LocalStore(url: url, passwordHasher: .fastForTests) }
        #expect(error == .unusableStore(UnusableStore(path: url.path, reason: .anotherProgramsFile)))
        #expect(error?.message == "\(url.path) is not an hmon database (it belongs to another program)")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func anEmptyFileBecomesAStore() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        #expect(try await store.deviceTypes().count == BuiltInDeviceType.allCases.count)
    }

    @Test func aFolderIsRefusedAsADatabase() throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: HealthError.self) { try LocalStore(url: folder.url, passwordHasher: .fastForTests) }
        #expect(error?.message == "\(folder.url.standardizedFileURL.path) is a folder, not an hmon database")
    }
}

@Suite struct SchemaVersionTests {
    @Test func aStoreFromANewerHmonIsRefusedUntouched() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("hmon.sqlite")
        do {
            let store = try LocalStore(url: url, passwordHasher: .fastForTests)
            try await store.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
            }
        }
        let error = #expect(throws: HealthError.self) { try LocalStore(url: url, passwordHasher: .fastForTests) }
        #expect(error == .unusableStore(UnusableStore(path: url.path, reason: .writtenByNewerHmon)))
        #expect(error?.message == "\(url.path) was written by a newer hmon")
    }
}
