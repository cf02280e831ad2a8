import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// `StoreCopy` on PostgreSQL: pages by `seq` (devices, readings) or the primary key; the target's rows
/// go in with multi-row inserts inside one transaction.
extension PostgresStore: StoreRowCopying {
    /// The column a table is paged by.
    private static func key(of table: String) -> (column: String, isSequence: Bool) {
        switch table {
        case "devices", "messages": ("seq", true)
        case "profiles": ("user_id", false)
        case "tokens", "welltory_links": ("hash", false)
        default: ("id", false)
        }
    }

    package func rowCount(_ table: String) async throws -> Int {
        try await read { db in try await db.one(PostgresQuery(unsafeSQL: "SELECT count(*) AS n FROM \(table)"))?.value("n", Int.self) ?? 0 }
    }

    package func rows(of table: StoreCopy.Table, after: StoreCopy.Value?, limit: Int) async throws
        -> (rows: [[StoreCopy.Value]], last: StoreCopy.Value?) {
        let columns = table.columns.map(\.name).joined(separator: ", ")
        if StoreCopy.unpaged.contains(table.name) {
            return try await read { db in
                (try await db.all(PostgresQuery(unsafeSQL: "SELECT \(columns) FROM \(table.name)")).map { row in
                    try table.columns.enumerated().map { index, column in try Self.copyValue(row[index], kind: column.kind) }
                }, nil)
            }
        }
        let key = Self.key(of: table.name)
        var bindings = PostgresBindings()
        var condition = ""
        switch after {
        case .integer(let last)?:
            bindings.append(last)
            condition = "WHERE \(key.column) > $1"
        case .text(let last)?:
            bindings.append(last)
            condition = "WHERE \(key.column) COLLATE \"C\" > $1"
        default: break
        }
        bindings.append(limit)
        let order = key.isSequence ? key.column : "\(key.column) COLLATE \"C\""
        let sql = "SELECT \(key.column) AS copy_key, \(columns) FROM \(table.name) \(condition) ORDER BY \(order) LIMIT $\(bindings.count)"
        return try await read { db in
            let rows = try await db.all(PostgresQuery(unsafeSQL: sql, binds: bindings))
            let values = try rows.map { row in
                try table.columns.enumerated().map { index, column in try Self.copyValue(row[index + 1], kind: column.kind) }
            }
            let last: StoreCopy.Value? = try rows.last.map { row in
                key.isSequence ? .integer(try row[0].decode(Int64.self)) : .text(try row[0].decode(String.self))
            }
            return (values, last)
        }
    }

    package func replaceRows(from source: any StoreRowCopying, totals: [String: Int], replacing: Bool,
                     progress: (@Sendable (StoreCopy.Progress) -> Void)?) async throws -> [String: Int] {
        do {
            return try await bulkWrite { db in
                let users = try await db.one("SELECT count(*) AS n FROM users")?.value("n", Int.self) ?? 0
                let readings = try await db.one("SELECT count(*) AS n FROM messages")?.value("n", Int.self) ?? 0
                if users + readings > 0 {
                    guard replacing else { throw StoreCopy.notEmpty(location, users: users, readings: readings) }
                    for table in StoreCopy.tables.reversed() {
                        try await db.run(PostgresQuery(unsafeSQL: "DELETE FROM \(table.name)"))
                    }
                    try await db.run("DELETE FROM day_totals_cache")
                }
                var copied: [String: Int] = [:]
                for table in StoreCopy.tables {
                    var after: StoreCopy.Value?
                    var count = 0
                    // At most 65,535 parameters a statement.
                    let pageSize = min(StoreCopy.pageSize, 60_000 / table.columns.count)
                    while true {
                        let page = try await source.rows(of: table, after: after, limit: pageSize)
                        if !page.rows.isEmpty { try await Self.insert(page.rows, into: table, db: db) }
                        count += page.rows.count
                        progress?(StoreCopy.Progress(table: table.name, copied: count, total: totals[table.name] ?? count))
                        guard page.rows.count == pageSize, let key = page.last else { break }
                        after = key
                    }
                    copied[table.name] = count
                }
                return copied
            }
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    private static func insert(_ rows: [[StoreCopy.Value]], into table: StoreCopy.Table, db: PGConnection) async throws {
        var bindings = PostgresBindings(capacity: rows.count * table.columns.count)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            var placeholders: [String] = []
            for (value, column) in zip(row, table.columns) {
                switch (value, column.kind) {
                case (.null, _): bindings.appendNull()
                case (.integer(let number), .boolean): bindings.append(number != 0)
                case (.integer(let number), .real): bindings.append(Double(number))
                case (.integer(let number), _): bindings.append(number)
                case (.real(let number), _): bindings.append(number)
                case (.text(let text), .id): bindings.append(ByteaID(text))
                case (.text(let text), _): bindings.append(text)
                }
                placeholders.append("$\(bindings.count)")
            }
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
        }
        let sql = "INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) VALUES " + tuples.joined(separator: ", ")
        try await db.run(PostgresQuery(unsafeSQL: sql, binds: bindings))
    }

    private static func copyValue(_ cell: PostgresCell, kind: StoreCopy.Kind) throws -> StoreCopy.Value {
        switch kind {
        case .text: try cell.decode(String?.self).map { .text($0) } ?? .null
        case .integer: try cell.decode(Int64?.self).map { .integer($0) } ?? .null
        case .real: try cell.decode(Double?.self).map { .real($0) } ?? .null
        case .boolean: try cell.decode(Bool?.self).map { .integer($0 ? 1 : 0) } ?? .null
        case .id: try cell.decode(ByteaID?.self).map { .text($0.id) } ?? .null
        }
    }
}
