import Foundation
import GRDB
import HealthCore
import HealthModel

/// SQLite's side of `StatementEngine`: renders a `StoreStatement` as GRDB SQL with its arguments, and each
/// row as a `StoreRow`.
extension LocalStore: StatementEngine {
    public func fetch(_ statement: StoreStatement) async throws -> [StoreRow] {
        try await read { db in try SQLiteSession(db: db).rows(statement) }
    }

    public func readingStatements<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T) async throws -> T {
        try await read { db in try body(SQLiteSession(db: db)) }
    }

    public func writingStatements<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T) async throws -> T {
        try await write { db in try body(SQLiteSession(db: db)) }
    }
}

/// Statements on one GRDB connection, inside the transaction its caller holds.
struct SQLiteSession: StatementSession {
    let db: Database

    func rows(_ statement: StoreStatement) throws -> [StoreRow] {
        let (sql, arguments) = Self.rendered(statement)
        // Cached: the text of a statement is fixed (only its values vary), and some run on every request.
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(Self.storeRow)
    }

    func run(_ statement: StoreStatement) throws {
        let (sql, arguments) = Self.rendered(statement)
        try db.execute(sql: sql, arguments: arguments)
    }

    func insertDevice(_ device: Device) throws {
        try LocalStore.insertDevice(id: device.id, uid: device.uid, dtid: device.dtid, name: device.name,
                                    manifestVersion: device.manifestVersion, createdAt: device.createdOn.millisecondsSince1970,
                                    connected: device.connected, in: db)
    }

    func holdLock(named key: String) throws {}

    static func rendered(_ statement: StoreStatement) -> (String, StatementArguments) {
        var sql = ""
        var values: [(any DatabaseValueConvertible)?] = []
        for piece in statement.pieces {
            switch piece {
            case .sql(let text): sql += text
            case .value(let value): sql += "?"; values.append(databaseValue(value))
            case .caselessColumn(let column): sql += "(\(column) COLLATE NOCASE)"
            case .caselessValue(let text): sql += "?"; values.append(text)
            case .inBinaryIDs(let ids):
                sql += "IN (" + ids.map { _ in "?" }.joined(separator: ", ") + ")"
                values.append(contentsOf: ids.map(StoredID.init) as [(any DatabaseValueConvertible)?])
            case .fragment(.insertionOrder): sql += "rowid"
            case .fragment(.lockingReadRows), .fragment(.bytewiseOrder), .fragment(.keptFromDeletion): break
            }
        }
        return (sql, StatementArguments(values))
    }

    static func databaseValue(_ value: StoreValue) -> (any DatabaseValueConvertible)? {
        switch value {
        case .null: nil
        case .integer(let number): number
        case .real(let number): number
        case .text(let text): text
        case .flag(let flag): flag
        case .binaryID(let id): StoredID(id)
        case .bytes(let bytes): bytes
        }
    }

    static func storeRow(_ row: Row) -> StoreRow {
        var values: [String: StoreValue] = [:]
        for (column, value) in row where values[column] == nil {  // the first of two same-named columns, as GRDB reads them
            switch value.storage {
            case .null: values[column] = .null
            case .int64(let number): values[column] = .integer(number)
            case .double(let number): values[column] = .real(number)
            case .string(let text): values[column] = .text(text)
            case .blob(let bytes): values[column] = .binaryID(BinaryID.decode(bytes))
            }
        }
        return StoreRow(values)
    }
}

// What SQLite takes from the logic written once over statements (HealthCore's `…+Statements` files).
extension LocalStore: TokenRows {}
extension LocalStore: WelltoryLinkRows {}
