import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// PostgreSQL's side of `StatementEngine`: renders a `StoreStatement` as a `PostgresQuery` (`$n` binds),
/// each row as a `StoreRow`. A transaction's body is synchronous (as SQLite's is), so it runs on a thread of
/// its own, each statement waiting there for the connection's answer: Swift's cooperative pool never waits.
extension PostgresStore: StatementEngine {
    public func fetch(_ statement: StoreStatement) async throws -> [StoreRow] {
        let query = Self.query(statement)
        return try await read { db in try await db.all(query).map(Self.storeRow) }
    }

    public func readingStatements<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T) async throws -> T {
        try await snapshot { db in try await Self.runOffThePool(body, on: db) }
    }

    public func writingStatements<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T) async throws -> T {
        try await write { db in try await Self.runOffThePool(body, on: db) }
    }

    /// Runs a body written for both engines inside a transaction PostgreSQL engine code already holds.
    static func runOffThePool<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T,
                                                   on db: PGConnection) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "hmon.postgres.statements").async {
                continuation.resume(with: Result { try body(WaitingSession(db: db)) })
            }
        }
    }

    static func query(_ statement: StoreStatement) -> PostgresQuery {
        var sql = ""
        var binds = PostgresBindings(capacity: statement.pieces.count)
        for piece in statement.pieces {
            switch piece {
            case .sql(let text):
                sql += text
            case .value(let value):
                append(value, to: &binds)
                sql += "$\(binds.count)"
            case .caselessColumn(let column):
                sql += asciiLower(column)
            case .caselessValue(let text):
                binds.append(StoreStatement.asciiLowered(text))
                sql += "$\(binds.count)"
            case .inBinaryIDs(let ids):
                binds.append(ids.map(ByteaID.init))
                sql += "= ANY($\(binds.count))"
            case .fragment(.lockingReadRows):
                sql += " FOR UPDATE"
            case .fragment(.bytewiseOrder):
                sql += " COLLATE \"C\""
            case .fragment(.insertionOrder):
                sql += "seq"
            case .fragment(.keptFromDeletion):
                sql += " FOR KEY SHARE"
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// SQL folding a column's ASCII letters, as SQLite's `NOCASE` does (and nothing else).
    static func asciiLower(_ column: String) -> String {
        "translate(\(column), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }

    private static func append(_ value: StoreValue, to binds: inout PostgresBindings) {
        switch value {
        case .null: binds.appendNull()
        case .integer(let number): binds.append(number)
        case .real(let number): binds.append(number)
        case .text(let text): binds.append(text)
        case .flag(let flag): binds.append(flag)
        case .binaryID(let id): binds.append(ByteaID(id))
        case .bytes(let bytes): binds.append(ByteBuffer(bytes: bytes))
        }
    }

    static func storeRow(_ row: PostgresRandomAccessRow) throws -> StoreRow {
        var values: [String: StoreValue] = [:]
        for cell in row where values[cell.columnName] == nil {
            values[cell.columnName] = try storeValue(cell)
        }
        return StoreRow(values)
    }

    private static func storeValue(_ cell: PostgresCell) throws -> StoreValue {
        if cell.bytes == nil { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8, .numeric: return .real(try cell.decode(Double.self))
        case .bool: return .flag(try cell.decode(Bool.self))
        case .bytea: return .binaryID(try cell.decode(ByteaID.self).id)
        default: return .text(try cell.decode(String.self))
        }
    }
}

extension PGConnection {
    /// A statement written for both engines, run here in engine code's own transaction.
    func rows(_ statement: StoreStatement) async throws -> [StoreRow] {
        try await all(PostgresStore.query(statement)).map(PostgresStore.storeRow)
    }
}

/// Statements on one leased connection, from a thread that may wait: each waits for its answer.
private struct WaitingSession: StatementSession {
    let db: PGConnection

    func rows(_ statement: StoreStatement) throws -> [StoreRow] {
        let query = PostgresStore.query(statement)
        let db = self.db
        return try WaitingSession.wait { try await db.all(query).map(PostgresStore.storeRow) }
    }

    func run(_ statement: StoreStatement) throws {
        let query = PostgresStore.query(statement)
        let db = self.db
        try WaitingSession.wait { try await db.run(query) }
    }

    func insertDevice(_ device: Device) throws {
        try run("""
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
            VALUES (\(device.id), \(device.uid), \(device.dtid), \(device.name), \(device.manifestVersion),
                    \(device.createdOn.millisecondsSince1970), \(device.connected))
            """)
    }

    func holdLock(named key: String) throws {
        try run("SELECT pg_advisory_xact_lock(hashtext(\(key)))")
    }

    private static func wait<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let answer = Answer<T>()
        Task {
            do { answer.give(.success(try await operation())) } catch { answer.give(.failure(error)) }
        }
        return try answer.take()
    }
}

/// One result handed from a task to the thread waiting for it.
private final class Answer<T: Sendable>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    // Written once before `ready` is signalled, read once after it is waited for: the semaphore orders them.
    private var result: Result<T, any Error>?

    func give(_ result: Result<T, any Error>) {
        self.result = result
        ready.signal()
    }

    func take() throws -> T {
        ready.wait()
        guard let result else { throw HealthError.storeUnavailable("a PostgreSQL statement ended without an answer") }
        return try result.get()
    }
}

// What PostgreSQL takes from the logic written once over statements (HealthCore's `…+Statements` files).
extension PostgresStore: TokenRows {}
extension PostgresStore: WelltoryLinkRows {}
