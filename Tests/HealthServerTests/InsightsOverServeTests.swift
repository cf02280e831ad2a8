import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
import SQLiteStorage

/// `hmon insights --server`: the server's day sums view gives the insights the store itself gives.
@Suite(.heavy) struct InsightsOverServeTests {
    @Test func insightsThroughAServerAreTheStoresOwn() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("insights-serve")
        defer { home.remove() }
        let folder = home.folder
        let environment = home.environment
        let store = try LocalStore(url: folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let scale = try await store.addDevice(name: "Scale", typeID: BuiltInDeviceType.scale.deviceType.id, userID: alice.id)
        let now = Date().millisecondsSince1970
        try await store.postBatch((1...40).map { day in
            NewMessage(sdid: scale.id, ts: now - Int64(day) * 86_400_000, data: [Field.weight: .number(80 - Double(day % 9) / 10)])
        }, userID: alice.id)
        let server = try await RunningServer.start(store: store, configuration: .forTests())
        defer { Task { await server.stop() } }

        let run = try await ServeCommandTests.run(binary, ["insights", "--server", server.url.absoluteString, "--user", "alice",
                                                           "--password-stdin"], input: "correct horse\n", environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        let local = try await ServeCommandTests.run(binary, ["insights", "--db", folder.appendingPathComponent("server.sqlite").path,
                                                             "--user", "alice"], input: "", environment: environment)
        #expect(local.status == 0, "\(local.errors)")
        #expect(run.output.contains("Weight"), "\(run.output)")
        #expect(run.output == local.output)
    }
}
