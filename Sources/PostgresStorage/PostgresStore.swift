import Foundation
import Logging
import PostgresNIO
import HealthCore
import HealthModel

/// The store on a PostgreSQL database, for several `hmon serve` instances (and the command line, and
/// dashboards) sharing one database server. Answers every `HealthStore` question as `LocalStore` does —
/// the same rules, ids, orders and errors — over a `PostgresClient` connection pool.
///
/// Every write transaction first bumps `hmon_meta.changes`: that row is the change token other
/// processes poll (a revoked token, a new reading), and taking its lock first orders the writers, as
/// SQLite's single write lock does, so they cannot deadlock on each other. Every committed write is also
/// announced (`NOTIFY`), naming whose data it changed: by the schema's triggers where the rows change
/// (schema version 30), whoever wrote them; see `PostgresStore+News.swift`.
public final class PostgresStore: HealthStore {
    public let connection: PostgresLocation
    public let passwordHasher: PasswordHasher
    public let access: StoreAccess
    public let wasCreated: Bool
    public var location: String { connection.description }

    /// The connections, refused at once while the database is unreachable (`ReconnectingPool`).
    let pool: ReconnectingPool
    let logger: Logger

    /// Opens the database `connection` names as `access` says: `.create` gives an empty database the
    /// hmon schema; `.readWrite` needs one already there and brings it up to date; `.readOnly` needs one
    /// up to date and writes nothing. Refuses a database that holds another program's tables, or one
    /// written by a newer hmon. Throws `HealthError.unusableStore` (refused password) or `.storeUnreachable`
    /// (no server there), naming the database without its password.
    public static func open(_ connection: PostgresLocation, access: StoreAccess = .create,
                            passwordHasher: PasswordHasher = .strong, maximumConnections: Int = 8) async throws -> PostgresStore {
        let logger = Logger(label: "hmon.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        // One connection of its own checks the schema: a refused password or an unreachable server is
        // reported at once, with the server's reason (the pool would retry, then say only that it gave up).
        let created: Bool
        do {
            let single = try await PostgresConnection.connect(configuration: try singleConfiguration(connection), id: 0, logger: logger)
            do {
                created = try await prepareSchema(PGConnection(connection: single, logger: logger), location: connection.description,
                                                  access: access)
                try? await single.close()
            } catch {
                try? await single.close()
                throw error
            }
        } catch {
            throw mapped(error, location: connection.description)
        }
        let poolConfiguration = configuration(connection, maximumConnections: maximumConnections)
        let pool = ReconnectingPool(makeClient: { PostgresClient(configuration: poolConfiguration, backgroundLogger: logger) },
                                    probeConfiguration: try singleConfiguration(connection), logger: logger)
        return PostgresStore(connection: connection, passwordHasher: passwordHasher, access: access, wasCreated: created,
                             pool: pool, logger: logger)
    }

    static func singleConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        if let socket = location.socketPath {
            return .init(unixSocketPath: socket, username: location.user, password: location.password, database: location.database)
        }
        let tls: PostgresConnection.Configuration.TLS = switch location.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return .init(host: location.host ?? "localhost", port: location.port, username: location.user, password: location.password,
                     database: location.database, tls: tls)
    }

    private init(connection: PostgresLocation, passwordHasher: PasswordHasher, access: StoreAccess, wasCreated: Bool,
                 pool: ReconnectingPool, logger: Logger) {
        self.connection = connection
        self.passwordHasher = passwordHasher
        self.access = access
        self.wasCreated = wasCreated
        self.pool = pool
        self.logger = logger
    }

    deinit { pool.close() }

    /// Closes the pool's connections (a test's store, before its cluster stops).
    public func close() { pool.close() }

    private static func configuration(_ location: PostgresLocation, maximumConnections: Int) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socket = location.socketPath {
            configuration = .init(unixSocketPath: socket, username: location.user, password: location.password,
                                  database: location.database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch location.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
            configuration = .init(host: location.host ?? "localhost", port: location.port, username: location.user,
                                  password: location.password, database: location.database, tls: tls)
        }
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = [("application_name", "hmon")]
        return configuration
    }

    // MARK: Schema

    /// Checks the database is hmon's (or empty) and brings it to `PostgresSchema.latestVersion` in one
    /// transaction, under an advisory lock so two instances starting together migrate once.
    private static func prepareSchema(_ db: PGConnection, location: String, access: StoreAccess) async throws -> Bool {
        func unusable(_ reason: UnusableStore.Reason) -> HealthError { .unusableStore(UnusableStore(path: location, reason: reason)) }
        switch try await readState(db) {
        case .foreign: throw unusable(.anotherProgramsFile)
        case .hmon(let application, _) where application != PostgresSchema.application: throw unusable(.anotherProgramsFile)
        case .hmon(_, let version) where version > PostgresSchema.latestVersion: throw unusable(.writtenByNewerHmon)
        case .hmon(_, let version) where version == PostgresSchema.latestVersion:
            if access != .readOnly { try await FieldChangeKinds.fill(in: db) }
            return false
        case .empty where access != .create: throw unusable(.noStore)
        case .hmon where access == .readOnly: throw unusable(.olderLayout)
        default: break
        }
        try await db.run("BEGIN")
        do {
            try await db.run("SELECT pg_advisory_xact_lock(6856542606479218286)")
            // Read again under the lock: another instance may have migrated meanwhile.
            var version = 0
            switch try await readState(db) {
            case .foreign: throw unusable(.anotherProgramsFile)
            case .hmon(_, let found) where found > PostgresSchema.latestVersion: throw unusable(.writtenByNewerHmon)
            case .hmon(_, let found): version = found
            case .empty: version = 0
            }
            for migration in PostgresSchema.migrations where migration.version > version {
                for statement in migration.sql { try await db.run(PostgresQuery(unsafeSQL: statement)) }
                try await db.run("UPDATE hmon_meta SET version = \(migration.version)")
            }
            try await FieldChangeKinds.fill(in: db)
            try await db.run("COMMIT")
            return version == 0
        } catch {
            try? await db.run("ROLLBACK")
            throw error
        }
    }

    private enum SchemaState { case empty, foreign, hmon(application: String, version: Int) }

    private static func readState(_ db: PGConnection) async throws -> SchemaState {
        let hasMeta = try await db.one("SELECT to_regclass('hmon_meta') IS NOT NULL AS present")?.value("present", Bool.self) ?? false
        if hasMeta {
            guard let row = try await db.one("SELECT application, version FROM hmon_meta LIMIT 1") else { return .foreign }
            return .hmon(application: try row.value("application"), version: try row.value("version", Int.self))
        }
        let tables = try await db.one("""
            SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()
            """)?.value("n", Int.self) ?? 0
        return tables == 0 ? .empty : .foreign
    }

    // MARK: Change token

    public func changeToken() async throws -> Int64 {
        try await read { db in
            try await db.one("SELECT changes FROM hmon_meta")?.value("changes", Int64.self) ?? 0
        }
    }

    // MARK: Access for the extension files

    /// Runs `body` in a transaction that first bumps the change counter (see the type's comment).
    func write<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> T {
        if access == .readOnly { throw HealthError.unusableStore(UnusableStore(path: location, reason: .readOnly)) }
        do {
            return try await pool.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    let db = PGConnection(connection: connection, logger: logger)
                    try await db.bumpChangeToken()
                    return try await body(db)
                }
            }
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    /// Runs `body` in a transaction that first bumps the change counter, and commits it only when `keep`
    /// (a dry run rolls back what it did). Errors come back unmapped: the bulk writers (the imports, `db copy`)
    /// each say theirs their own way.
    func bulkWrite<T: Sendable>(keep: Bool = true, _ body: (PGConnection) async throws -> T) async throws -> T {
        do {
            return try await bulkTransaction(keep: keep, body)
        } catch let error as ReconnectingPool.Unreachable {
            // Not the writer's to word: the database is gone, and the import can be run again.
            throw Self.mapped(error, location: location)
        }
    }

    private func bulkTransaction<T: Sendable>(keep: Bool, _ body: (PGConnection) async throws -> T) async throws -> T {
        try await pool.withConnection { connection in
            let db = PGConnection(connection: connection, logger: logger)
            try await db.run("BEGIN")
            do {
                try await db.bumpChangeToken()
                let value = try await body(db)
                try await db.run(keep ? "COMMIT" : "ROLLBACK")
                return value
            } catch {
                try? await db.run("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` on one leased connection, each statement on its own, in a run opened to read too, and
    /// moves no change token: for what is derived from the readings and kept to save work (the day sums),
    /// whose keeping changes nothing anyone sees. A database that refuses the write throws, as `write` does.
    func keepDerived<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> T {
        try await read(body)
    }

    /// Runs `body` on one leased connection, each statement on its own (the hot reads are one statement:
    /// a transaction around them would add two round trips).
    func read<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> T {
        do {
            return try await pool.withConnection { connection in
                try await body(PGConnection(connection: connection, logger: logger))
            }
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    /// Runs `body` in a read-only transaction that sees one snapshot: for answers made of several queries
    /// (a screen), which must not mix states from before and after another process's write.
    func snapshot<T: Sendable>(_ body: (PGConnection) async throws -> T) async throws -> T {
        do {
            return try await pool.withConnection { connection in
                let db = PGConnection(connection: connection, logger: logger)
                try await db.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                do {
                    let value = try await body(db)
                    try await db.run("COMMIT")
                    return value
                } catch {
                    try? await db.run("ROLLBACK")
                    throw error
                }
            }
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    /// A `HealthError` for what the driver threw: the server's own message, never the password.
    static func mapped(_ error: any Error, location: String) -> HealthError {
        func unreachable(_ reason: String) -> HealthError {
            .storeUnreachable("cannot reach PostgreSQL at \(location) (\(reason)): is the server running?")
        }
        if let health = error as? HealthError { return health }
        if let lost = error as? ReconnectingPool.Unreachable { return unreachable(lost.reason) }
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
                return mapped(inner, location: location)
            }
        }
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] {
                let state = psql.serverInfo?[.sqlState] ?? ""
                if state == "28P01" || state == "28000" {
                    return .unusableStore(UnusableStore(path: location, reason: .notPermitted(
                        detail: "\(message): give the password in PGPASSWORD or ~/.pgpass")))
                }
                if state == "3D000" {
                    return .unusableStore(UnusableStore(path: location, reason: .cannotOpen(
                        detail: "\(message): create it with `createdb`")))
                }
                // 22021: text with a NUL (PostgreSQL's text cannot hold one). The entry points refuse NUL first
                // (`StoreRules.checkNoNUL`); one that slips past is the caller's bad input, never a server fault.
                if state == "22021" {
                    return .invalidValue("a text holds a NUL character (U+0000), which the store cannot keep: remove it")
                }
                if state.hasPrefix("40") {
                    return .storeBusy("\(location) is busy (\(message)); nothing was written, try again")
                }
                return .storeUnavailable("database error in \(location): \(message)")
            }
            if psql.code == .connectionError || psql.code == .serverClosedConnection {
                return unreachable(ReconnectingPool.reason(psql))
            }
            return .storeUnavailable("database error in \(location): \(psql.code)")
        }
        if error is CancellationError { return .storeUnavailable("the connection to \(location) was closed") }
        return .storeUnavailable("database error in \(location): \(String(describing: type(of: error)))")
    }
}

/// One leased connection, with the few ways the store runs SQL on it.
struct PGConnection {
    let connection: PostgresConnection
    let logger: Logger

    func all(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await connection.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    func one(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await all(query).first
    }

    func run(_ query: PostgresQuery) async throws {
        _ = try await connection.query(query, logger: logger).collect()
    }

    /// How many rows a statement returned (an UPDATE or DELETE with `RETURNING 1` tells how many it changed).
    func count(_ query: PostgresQuery) async throws -> Int {
        try await all(query).count
    }

    func exists(_ query: PostgresQuery) async throws -> Bool {
        try await one(query) != nil
    }
}

extension PostgresRandomAccessRow {
    func value<T: PostgresDecodable>(_ column: String, _ type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }
}
