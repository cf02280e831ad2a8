import Foundation
import HMonCommandLine
import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage

/// `hmon keys --list`: the dashboard's key tables with config.toml's `[keys]` applied, printed, and its
/// problems on standard error (exit 1 when there are any, so a script can check a config); `--markdown`:
/// the tables as shipped, as docs/dashboard.md holds them.
enum KeyListCommand {
    @MainActor
    static func print() async throws {
        let paths = StoreOpener(db: nil, demo: false, server: nil, environment: ProcessInfo.processInfo.environment).paths
        let config: DashboardConfig
        do { config = try DashboardConfig.load(from: paths.configFile) } catch { throw HealthError.invalidValue(error.description) }
        let problems = try withDashboard { dashboard in
            let problems = dashboard.takeKeys(of: config)
            FileHandle.standardOutput.write(Data(KeyListing.text(of: dashboard).utf8))
            return problems
        }
        guard problems.isEmpty else {
            FileHandle.standardError.write(Data(problems.map { "hmon: \(TerminalText.escaped($0))\n" }.joined().utf8))
            throw CommandError("config.toml's [keys] has \(problems.count) problem\(problems.count == 1 ? "" : "s"): the actions named keep their default keys")
        }
    }

    /// `hmon keys --markdown`: docs/dashboard.md's key tables between their marker lines, the keys as shipped
    /// (the docs describe hmon, not one person's config.toml).
    @MainActor
    static func printMarkdown() throws {
        try withDashboard { dashboard in
            FileHandle.standardOutput.write(Data((KeyListingMarkdown.block(of: dashboard) + "\n").utf8))
        }
    }

    /// A dashboard over an empty store of its own: the screens' keys do not depend on anyone's data, and
    /// listing them must not open (or make) the person's store.
    @MainActor
    private static func withDashboard<T>(_ body: (Dashboard) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("keys.sqlite"))
        return try body(Dashboard(app: AppModel(service: LocalHealthService(store: store), clock: .system)))
    }
}
