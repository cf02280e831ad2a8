import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
import SQLiteStorage

/// `hmon insights --server`: the SAMI contract has no route for per-day sums, so it says so plainly.
@Suite struct InsightsOverServeTests {
    @Test func insightsThroughAServerAreRefusedWithWhatToDoInstead() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("insights-serve")
        defer { home.remove() }
        let folder = home.folder
        let environment = home.environment
        let store = try LocalStore(url: folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        _ = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let server = try await RunningServer.start(store: store, configuration: ServerConfiguration(port: 0, rateLimit: nil))
        defer { Task { await server.stop() } }

        let run = try await ServeCommandTests.run(binary, ["insights", "--server", server.url.absoluteString, "--user", "alice",
                                                           "--password-stdin"], input: "correct horse\n", environment: environment)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("hmon: insights need the store itself"), "\(run.errors)")
        #expect(run.errors.contains("--db"))
        #expect(run.output.isEmpty)
    }
}
