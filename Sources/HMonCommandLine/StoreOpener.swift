import Foundation
import HealthCore

/// Which store a command opens and which user it acts for: the one place that decides where data lives,
/// so every subcommand, the dashboard and `hmon snapshot` resolve `--db`, `--demo`, `$HMON_DB`, `--user`
/// and the saved session alike. `--server` opens a server's service instead (`StoreOpener+Server.swift`).
public struct StoreOpener: Sendable {
    /// `--db PATH`.
    public var db: String?
    /// `--demo`: the demo store (filled on first use), never the user's own.
    public var demo: Bool
    /// `--user NAME`.
    public var user: String?
    /// `--server URL`.
    public var server: String?
    /// `--password-stdin`, for signing in to `--server`.
    public var passwordStdin: Bool
    public var environment: [String: String]

    public init(db: String? = nil, demo: Bool = false, user: String? = nil, server: String? = nil, passwordStdin: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.db = db
        self.demo = demo
        self.user = user
        self.server = server
        self.passwordStdin = passwordStdin
        self.environment = environment
    }

    public var paths: HMonPaths { HMonPaths(environment: environment) }

    /// `--db`, else the demo store with `--demo`, else `$HMON_DB`, else the default store.
    public var databaseURL: URL {
        if let db { return URL(fileURLWithPath: expandingTilde(db)) }
        if demo { return paths.demoDatabase }
        if let db = environment["HMON_DB"], !db.isEmpty { return URL(fileURLWithPath: expandingTilde(db)) }
        return paths.defaultDatabase
    }

    /// The store, for commands that work on it as a whole (users, device types, the server).
    public func openStore() throws -> LocalStore { try LocalStore(url: databaseURL) }

    /// The store for the dashboard and snapshots: the small memory footprint, and with `--demo` the
    /// demo data, created or brought up to `now`.
    public func openDashboardStore(now: Date, calendar: Calendar) async throws -> LocalStore {
        if demo {
            return try await DemoData.openStore(at: databaseURL, now: now, calendar: calendar, footprint: .interactive)
        }
        return try LocalStore(url: databaseURL, footprint: .interactive)
    }

    /// The service acting for the command's user (see `actingUser(on:)`), local or `--server`'s.
    public func open() async throws -> OpenedService {
        if let address = serverAddress { return try await openRemote(address) }
        let service = LocalHealthService(store: try openStore())
        return OpenedService(service: service, user: try await actingUser(on: service))
    }

    /// The user to act for without a password: `--user NAME`; else `demo` on the demo store; else the
    /// saved session's when it belongs to this store; else the store's only account.
    public func actingUser(on service: LocalHealthService) async throws -> User {
        if let user { return try await service.actingAs(name: user) }
        if demo { return try await service.actingAs(name: DemoData.userName) }
        let store = service.store
        if let session = SessionStore(paths: paths).load(), session.location == store.path,
           let user = try? await service.resume(session) {
            return user
        }
        let users = try await store.users()
        if users.count == 1 { return try await service.actingAs(name: users[0].name) }
        if users.isEmpty {
            throw CommandError("\(store.path) has no account yet: create one with `hmon user add NAME`, or try --demo")
        }
        throw CommandError("not signed in: pass --user NAME or sign in with `hmon`")
    }

    private func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}

/// A service acting for a user.
public struct OpenedService: Sendable {
    public let service: any HealthService
    public let user: User

    public init(service: any HealthService, user: User) {
        self.service = service
        self.user = user
    }
}
