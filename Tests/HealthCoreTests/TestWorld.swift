import Foundation
import GRDB
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// A fresh folder in the temporary directory, removed when the world goes away.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("health-core-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A store in its own temporary folder, with one signed-in user and a scale.
struct TestWorld {
    let folder: TemporaryFolder
    let store: LocalStore
    var databaseURL: URL { store.url }

    init() throws {
        folder = try TemporaryFolder()
        store = try LocalStore(url: folder.file("hmon.sqlite"), passwordHasher: .fastForTests)
    }

    /// A user with a password, and a service signed in as them.
    func user(_ name: String = "alice", password: String = "secret-pw") async throws -> (User, LocalHealthService) {
        let user = try await store.createUser(NewAccount(name: name, fullName: "Alice Example", email: "\(name)@example.com",
                                                         password: password))
        let service = LocalHealthService(store: store, userID: user.id)
        return (user, service)
    }

    /// A device of a built-in type for the signed-in user of `service`.
    func device(_ type: BuiltInDeviceType, named name: String, for service: LocalHealthService) async throws -> Device {
        try await service.addDevice(name: name, typeID: type.deviceType.id)
    }
}

/// The number of rows of a table, read through SQLite directly.
func rowCount(_ table: String, in store: LocalStore) async throws -> Int {
    try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
}
