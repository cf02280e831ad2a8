import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import HealthServer
@testable import SQLiteStorage

/// Issue 16, item 8: with a session saved for a server, `--password-stdin` still means "sign in with
/// this password", so a wrong one is refused instead of silently ignored.
@Suite(.heavy) struct SavedSessionPasswordTests {
    @Test func aPasswordOnStandardInputIsCheckedEvenWithASavedSession() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("session")
        defer { home.remove() }
        let folder = home.folder
        let environment = home.environment

        let store = try LocalStore(url: folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let scale = try await store.addDevice(name: "Bathroom scale", typeID: BuiltInDeviceType.withings.deviceType.id,
                                              userID: alice.id)
        let server = try await RunningServer.start(store: store, configuration: .forTests())
        defer { Task { await server.stop() } }
        let address = server.url.absoluteString

        let first = try await ServeCommandTests.run(binary, ["add", "weight", "72.4", "--server", address, "--user", "alice",
                                                             "--password-stdin"], input: "correct horse\n", environment: environment)
        try #require(first.status == 0, "\(first.errors)")

        let wrong = try await ServeCommandTests.run(binary, ["add", "weight", "72.9", "--server", address, "--user", "alice",
                                                             "--password-stdin"], input: "not the password\n", environment: environment)
        #expect(wrong.status == 1)
        #expect(wrong.errors == "hmon: wrong user name or password\n")
        let withoutUser = try await ServeCommandTests.run(binary, ["add", "weight", "72.9", "--server", address, "--password-stdin"],
                                                          input: "not the password\n", environment: environment)
        #expect(withoutUser.status == 1, "the saved session's user, with a wrong password")

        let weights = try await store.lastMessages(deviceID: scale.id, userID: alice.id, count: 10).compactMap { $0.data["weight"]?.number }
        #expect(weights == [72.4])
        await server.stop()
    }
}
