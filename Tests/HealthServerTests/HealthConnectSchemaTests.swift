import Foundation
import Testing
import TestSupport

/// The Life Dashboard Companion fixtures against the app's own JSON Schema (its `docs/webhook-schema.json`),
/// so they stay payloads the app could send. The schema is the app's, not hmon's, and is not kept in this
/// repository: the check runs when one is given and Python's `jsonschema` is installed, and is cancelled with
/// the reason otherwise.
@Suite(.heavy) struct HealthConnectSchemaTests {
    /// `HMON_LDC_SCHEMA`, else `.build/life-dashboard-companion/webhook-schema.json` in the package.
    static let schema: URL = ProcessInfo.processInfo.environment["HMON_LDC_SCHEMA"].map { URL(fileURLWithPath: $0) }
        ?? ThirdPartyClients.root.appendingPathComponent(".build/life-dashboard-companion/webhook-schema.json")

    static let check = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            sys.exit(3)
        schema = json.load(open(sys.argv[1]))
        for path in sys.argv[2:]:
            jsonschema.validate(json.load(open(path)), schema)
            print("valid:", path)
        """

    @Test func theLifeDashboardCompanionFixturesAreValidByTheAppsSchema() async throws {
        guard FileManager.default.fileExists(atPath: Self.schema.path) else {
            try Test.cancel("no Life Dashboard Companion schema at \(Self.schema.path): save the app's docs/webhook-schema.json there, or set HMON_LDC_SCHEMA")
        }
        let python = ThirdPartyClients.python?.path ?? "/usr/bin/env"
        let prefix = ThirdPartyClients.python == nil ? ["python3"] : []
        let fixtures = ["life-dashboard-companion.json", "life-dashboard-companion-bucketed.json"]
            .map { HealthConnectTests.fixtures.appendingPathComponent($0).path }
        let run = try await ChildProcess.running(python, prefix + ["-c", Self.check, Self.schema.path] + fixtures,
                                                 environment: ProcessInfo.processInfo.environment)
        if run.status == 3 { try Test.cancel("Python's jsonschema is not installed for \(prefix.first ?? python)") }
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output.components(separatedBy: "valid:").count == fixtures.count + 1)
    }
}
