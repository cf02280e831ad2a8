import Foundation
import HealthCore
import HealthModel
import SQLiteStorage
import PostgresStorage

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
        URL(fileURLWithPath: expandingTilde(databaseText ?? (demo ? paths.demoDatabase : paths.defaultDatabase).path))
    }

    /// What `--db` (else `$HMON_DB`, when not `--demo`) says, as given.
    private var databaseText: String? {
        if let db { return db }
        if demo { return nil }
        if let db = environment["HMON_DB"], !db.isEmpty { return db }
        return nil
    }

    /// The PostgreSQL database `--db` or `$HMON_DB` names with a `postgres://` URL; nil for a file.
    /// Throws a usage error for a malformed URL (the message never holds its password).
    public func postgresLocation() throws -> PostgresLocation? {
        guard let text = databaseText, PostgresLocation.isURL(text) else { return nil }
        do {
            return try PostgresLocation(text, environment: environment)
        } catch let error as HealthError {
            throw CommandError(error.message)
        }
    }

    /// The store, for commands that work on it as a whole (users, device types, the server). Commands
    /// that only show data pass `.readOnly`; only those that exist to make a store (`user add`, `demo`,
    /// `serve`) pass `.create`; every other one needs a store already there.
    ///
    /// A command that writes while another hmon holds the store (an import) waits for it, saying so on
    /// standard error, up to `writerPatience`; the server passes `.standard` instead, to answer "busy".
    ///
    /// A `postgres://` URL opens the PostgreSQL store instead (`PostgresStore`), with the same `access`.
    public func openStore(_ access: StoreAccess, patience: WriterPatience? = nil) async throws -> any HealthStore {
        if let postgres = try postgresLocation() { return try await PostgresStore.open(postgres, access: access) }
        return try LocalStore(url: databaseURL, access: access, patience: patience ?? writerPatience)
    }

    /// The refusal of `--demo` with a `postgres://` `--db`: the demo is made in an SQLite file (a URL taken
    /// for a path would make one named like the URL).
    public static func demoNeedsAFile(_ db: String) -> CommandError {
        CommandError("the demo store is an SQLite file: pass a path to --db (then `hmon db copy PATH \(PostgresLocation.redacted(db))` to try it on PostgreSQL)")
    }

    /// Five minutes (`$HMON_WRITE_WAIT` seconds, when set), with a line on standard error after a second.
    public var writerPatience: WriterPatience {
        let limit = environment["HMON_WRITE_WAIT"].flatMap { NumberText.decimal($0) }.flatMap { $0 >= 0 ? $0 : nil } ?? 300
        return WriterPatience(limit: limit) { line in
            FileHandle.standardError.write(Data("hmon: \(TerminalText.escaped(line))\n".utf8))
        }
    }

    /// The store for the dashboard and snapshots: the small memory footprint, and with `--demo` the
    /// demo data, created or brought up to `now`. A snapshot of the user's own store reads only
    /// (`.readOnly`); the dashboard may make one on its first run (`.create`).
    public func openDashboardStore(now: Date, calendar: Calendar, access: StoreAccess = .create) async throws -> any HealthStore {
        if demo {
            if let db, PostgresLocation.isURL(db) { throw Self.demoNeedsAFile(db) }
            // A snapshot reads: a demo store with nothing to add is opened as a reader, as `--db` is.
            if access == .readOnly,
               let store = await DemoData.openToRead(at: databaseURL, now: now, calendar: calendar, footprint: .interactive) {
                return store
            }
            return try await DemoData.openStore(at: databaseURL, now: now, calendar: calendar, footprint: .interactive)
        }
        if let postgres = try postgresLocation() {
            // A snapshot draws one frame, whose loads took turns on one connection anyway: a second one
            // only cost its start (a backend forked, signed in, warmed) on every launch.
            return try await PostgresStore.open(postgres, access: access, maximumConnections: access == .readOnly ? 1 : 2)
        }
        // The dashboard's own short wait: a notice on standard error would land on its screen, and a
        // write that fails shows in its status bar.
        return try LocalStore(url: databaseURL, access: access, footprint: .interactive)
    }

    /// The service acting for the command's user (see `actingUser(on:)`), local or `--server`'s; a
    /// local store opened as `access` says (`.readOnly` for commands that only show data).
    public func open(_ access: StoreAccess) async throws -> OpenedService {
        if let address = serverAddress { return try await openRemote(address) }
        if demo && db == nil {
            // The demo store is made, or brought up to now, as `hmon --demo` does, whatever the command.
            let store = try await DemoData.openStore(at: databaseURL, now: Date(), calendar: .current)
            let service = LocalHealthService(store: store)
            return OpenedService(service: service, user: try await actingUser(on: service))
        }
        let service = LocalHealthService(store: try await openStore(access))
        return OpenedService(service: service, user: try await actingUser(on: service))
    }

    /// The user to act for without a password: `--user NAME`; else `demo` on the demo store; else the
    /// saved session's when it belongs to this store; else the store's only account.
    public func actingUser(on service: LocalHealthService) async throws -> User {
        if let user { return try await service.actingAs(name: user) }
        if demo { return try await service.actingAs(name: DemoData.userName) }
        let store = service.store
        if let session = SessionStore(paths: paths).load(at: store.location),
           let user = try? await service.resume(session) {
            return user
        }
        let users = try await store.users()
        if users.count == 1 { return try await service.actingAs(name: users[0].name) }
        if users.isEmpty {
            throw CommandError("\(store.location) has no account yet: create one with `hmon user add NAME`, or try --demo")
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
