import Foundation
import HealthCore
import HealthServer
import TestSupport
import Testing

/// `hmon insights --server`: the SAMI contract has no route for per-day sums, so it says so plainly.
@Suite struct InsightsOverServeTests {
    @Test func insightsThroughAServerAreRefusedWithWhatToDoInstead() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-insights-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        environment["HMON_DB"] = nil
        environment["HMON_SERVER"] = nil
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
