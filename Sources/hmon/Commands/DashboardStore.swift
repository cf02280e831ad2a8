import Foundation
import HealthCore

/// Which store the dashboard and `hmon snapshot` open: `--demo` (the demo store, filled on first use,
/// never the user's own), `--db PATH`, `$HMON_DB`, or the default store in the data folder.
struct DashboardStore {
    var demo: Bool
    var db: String?
    var environment: [String: String] = ProcessInfo.processInfo.environment

    var paths: HMonPaths { HMonPaths(environment: environment) }

    var databaseURL: URL {
        if let db { return URL(fileURLWithPath: expandingTilde(db)) }
        if demo { return paths.demoDatabase }
        if let db = environment["HMON_DB"], !db.isEmpty { return URL(fileURLWithPath: expandingTilde(db)) }
        return paths.defaultDatabase
    }

    /// Opens (creating the folder, and for `--demo` the demo data) the store, with the dashboard's
    /// small memory footprint.
    func open(now: Date, calendar: Calendar) async throws -> LocalStore {
        let url = databaseURL
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw HealthError.storeUnavailable("cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        if demo {
            return try await DemoData.openStore(at: url, now: now, calendar: calendar, footprint: .interactive)
        }
        return try LocalStore(url: url, footprint: .interactive)
    }

    /// The user to act for without a password (snapshots): the named one, else `demo` on the demo
    /// store, else the saved session's, else the only account.
    func actingUser(_ name: String?, on service: LocalHealthService, store: LocalStore) async throws -> User {
        if let name { return try await service.actingAs(name: name) }
        if demo { return try await service.actingAs(name: DemoData.userName) }
        if let session = SessionStore(paths: paths).load(), session.location == store.path,
           let user = try? await service.resume(session) {
            return user
        }
        let users = try await store.users()
        guard users.count == 1 else {
            throw HealthError.invalidValue(users.isEmpty
                ? "\(store.path) has no account yet: try --demo, or create one with `hmon user add NAME`"
                : "\(store.path) has \(users.count) accounts: pass --user NAME")
        }
        return try await service.actingAs(name: users[0].name)
    }

    private func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}
