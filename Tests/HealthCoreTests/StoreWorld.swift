import Foundation
import GRDB
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage
@testable import PostgresStorage

/// A new, empty store of one engine (a file in a temporary folder, or a database of its own on the
/// test server), with a way to read its tables directly: SQLite through GRDB, PostgreSQL through psql.
struct StoreWorld {
    let engine: StoreEngine
    let folder: TemporaryFolder
    let store: any HealthStore
    /// The PostgreSQL database's URL (nil on SQLite).
    let postgresURL: String?

    init(_ engine: StoreEngine) async throws {
        self.engine = engine
        folder = try TemporaryFolder()
        switch engine {
        case .sqlite:
            store = try LocalStore(url: folder.file("hmon.sqlite"), passwordHasher: .fastForTests)
            postgresURL = nil
        case .postgres:
            let url = try await TestPostgres.newDatabase()
            store = try await PostgresStore.open(try PostgresLocation(url), passwordHasher: .fastForTests, maximumConnections: 4)
            postgresURL = url
        }
    }

    /// The first column of `sql`'s rows, as text.
    func strings(_ sql: String) async throws -> [String] {
        if let local = store as? LocalStore {
            return try await local.read { db in try String.fetchAll(db, sql: sql) }
        }
        let url = try #require(postgresURL)
        let output = try await offThePool { try TestPostgres.psql(url, sql) }
        return output.isEmpty ? [] : output.split(separator: "\n").map(String.init)
    }

    func rowCount(_ table: String) async throws -> Int {
        Int(try await strings("SELECT count(*) FROM \(table)").first ?? "0") ?? 0
    }

    /// A user with a password, and a service acting as them.
    func user(_ name: String = "alice", password: String = "secret-pw") async throws -> (User, LocalHealthService) {
        let user = try await store.createUser(NewAccount(name: name, fullName: "Alice Example", email: "\(name)@example.com",
                                                         password: password))
        return (user, LocalHealthService(store: store, userID: user.id))
    }

    func device(_ type: BuiltInDeviceType, named name: String, for service: LocalHealthService) async throws -> Device {
        try await service.addDevice(name: name, typeID: type.deviceType.id)
    }
}

/// Shows, as a skipped test with its reason, when the PostgreSQL half of the store suites cannot run.
@Suite struct PostgresHalfTests {
    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
    func thePostgreSQLHalfOfTheStoreSuitesRuns() async throws {
        let world = try await StoreWorld(.postgres)
        #expect(try await world.store.deviceTypes().count == BuiltInDeviceType.allCases.count)
    }
}
