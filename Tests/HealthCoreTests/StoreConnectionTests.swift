import Foundation
import GRDB
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// Issue 17, item 3: opening a store costs only the connections the command uses, because each one is
/// an SQLite open and a schema parse on the launch's critical path. A read-only store (the commands that
/// show data, `hmon snapshot`) reads through one connection however many reads run at once, and reads its
/// change token there too (it never commits); a store that writes opens the token's connection when a
/// change is first looked for. Either way the token sees another connection's commit.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "counts connections in /proc/self/fd"))
struct StoreConnectionTests {
    /// Descriptors this process holds on the store's file itself: one per SQLite connection (the -wal
    /// and -shm files are other paths).
    static func connections(to url: URL) throws -> Int {
        let path = url.resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == path
        }
    }

    @Test func aReadOnlyStoreReadsThroughOneConnection() async throws {
        let (folder, url) = try await ReadOnlyStoreTests.closedStore()
        defer { withExtendedLifetime(folder) {} }  // the folder goes when it does
        let store = try LocalStore(url: url, access: .readOnly)
        let user = try #require(try await store.user(named: "alice"))
        async let devices = store.devices(userID: user.id)
        async let users = store.users()
        async let again = store.user(named: "alice")
        #expect(try await devices.map(\.name) == ["Scale"])
        #expect(try await users.map(\.name) == ["alice"])
        #expect(try await again?.id == user.id)
        #expect(try Self.connections(to: url) == 1)
    }

    @Test(arguments: [StoreAccess.readOnly, .readWrite])
    func theChangeTokenOpensAConnectionOnlyForAStoreThatWritesAndSeesAnotherConnectionsCommit(_ access: StoreAccess) async throws {
        let (folder, url) = try await ReadOnlyStoreTests.closedStore()
        defer { withExtendedLifetime(folder) {} }  // the folder goes when it does
        let store = try LocalStore(url: url, access: access)
        let user = try #require(try await store.user(named: "alice"))
        let opened = try Self.connections(to: url)

        let first = try store.changeToken()
        #expect(try Self.connections(to: url) == opened + (access == .readOnly ? 0 : 1))
        #expect(try store.changeToken() == first)

        let other = try LocalStore(url: url, access: .readWrite, passwordHasher: .fastForTests)
        _ = try await other.addDevice(name: "Other", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
        #expect(try store.changeToken() != first)
        #expect(try await store.devices(userID: user.id).map(\.name) == ["Scale", "Other"])
    }
}
