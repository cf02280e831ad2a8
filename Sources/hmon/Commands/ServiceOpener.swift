import Foundation
import HealthCore

/// Opens the store the options point at and picks the user the command acts for. The one place that
/// decides where data lives, so every subcommand resolves `--db`, `HMON_DB` and the session alike.
struct ServiceOpener {
    var db: String?
    var user: String?
    /// `--server URL`: open a server's service instead (see `ServiceOpener+Server.swift`).
    var remote = ServerOption()
    var environment: [String: String] = ProcessInfo.processInfo.environment

    init(_ options: StoreOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(database: options.database, user: options.user, environment: environment)
        self.remote = options.remote
    }

    init(database: DatabaseOption, user: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.db = database.db
        self.user = user
        self.environment = environment
    }

    var paths: HMonPaths { HMonPaths(environment: environment) }

    /// `--db`, else `$HMON_DB`, else the default store.
    var databaseURL: URL {
        if let db { return URL(fileURLWithPath: expandingTilde(db)) }
        if let db = environment["HMON_DB"], !db.isEmpty { return URL(fileURLWithPath: expandingTilde(db)) }
        return paths.defaultDatabase
    }

    func openStore() throws -> LocalStore { try LocalStore(url: databaseURL) }

    /// The service acting for: `--user NAME`; else the saved session when it belongs to this store;
    /// else the store's only account.
    func open() async throws -> OpenedService {
        if let address = serverAddress { return try await openRemote(address) }
        let store = try openStore()
        let service = LocalHealthService(store: store)
        if let name = user {
            return OpenedService(service: service, user: try await service.actingAs(name: name))
        }
        if let session = SessionStore(paths: paths).load(), session.location == store.path,
           let user = try? await service.resume(session) {
            return OpenedService(service: service, user: user)
        }
        let users = try await store.users()
        if users.count == 1 {
            return OpenedService(service: service, user: try await service.actingAs(name: users[0].name))
        }
        if users.isEmpty {
            throw CommandError("\(store.path) has no account yet: create one with `hmon user add NAME`")
        }
        throw CommandError("not signed in: pass --user NAME or sign in with `hmon`")
    }

    private func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}

/// A service acting for a user.
struct OpenedService {
    let service: any HealthService
    let user: User
}
