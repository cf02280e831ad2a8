import Foundation
import TestSupport
import Testing

/// `--demo` works on every subcommand that opens a user's store, as on the dashboard: the demo store,
/// made on first use, never the person's own.
@Suite(.heavy) struct DemoFlagTests {
    @Test func subcommandsOpenTheDemoStoreAndLeaveTheOwnOneAlone() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("demo-flag")
        defer { home.remove() }
        let list = try await ServeCommandTests.run(binary, ["device", "list", "--demo"], input: "", environment: home.environment)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("Bathroom scale") && list.output.contains("Food log"))
        let added = try await ServeCommandTests.run(binary, ["add", "weight", "70.2", "--demo"], input: "", environment: home.environment)
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("70.2 kg to Bathroom scale"))
        let profile = try await ServeCommandTests.run(binary, ["profile", "show", "--demo"], input: "", environment: home.environment)
        #expect(profile.output.contains("demo (Demo User"))
        // The person's own store was never made.
        let own = home.folder.appendingPathComponent("data/hmon/hmon.sqlite")
        #expect(!FileManager.default.fileExists(atPath: own.path))
    }

    @Test func demoWithAnotherStoreIsAUsageError() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("demo-flag")
        defer { home.remove() }
        let refused = try await ServeCommandTests.run(binary, ["device", "list", "--demo", "--db", home.folder.appendingPathComponent("x.sqlite").path],
                                                      input: "", environment: home.environment)
        #expect(refused.status == 64 || refused.status == 2, "a usage error: \(refused.status)")
        #expect(refused.errors.contains("--demo uses the local demo store"))
    }
}
