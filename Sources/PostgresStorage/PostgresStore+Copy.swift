import Foundation
import NIOCore
import PostgresNIO
import HealthCore
import HealthModel

/// `StoreCopy` on PostgreSQL: pages by the table's serial column (`seq`) or its one-column primary key,
/// else reads the table whole; the target's rows go in with multi-row inserts inside one transaction.
extension PostgresStore: StoreRowCopying {
    package func copyCatalog() async throws -> StoreCopy.Catalog {
        try await read { db in
            var columns: [String: [String]] = [:]
            let tables = try await db.all("""
                SELECT table_name::text AS table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                """)
            for row in tables { columns[try row.value("table_name", String.self)] = [] }
            // Not the columns the server fills in itself: a serial's sequence (`seq`, the insertion order a
            // copied row takes anew), identity and generated columns.
            let written = try await db.all("""
                SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND coalesce(column_default, '') NOT LIKE 'nextval(%'
                  AND is_identity = 'NO' AND is_generated = 'NEVER'
                ORDER BY table_name, ordinal_position
                """)
            for row in written {
                let table = try row.value("table_name", String.self)
                guard columns[table] != nil else { continue }
                columns[table]?.append(try row.value("column_name", String.self))
            }
            var parents: [String: Set<String>] = [:]
            let keys = try await db.all("""
                SELECT child.relname::text AS child, parent.relname::text AS parent FROM pg_constraint k
                JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
                WHERE k.contype = 'f' AND child.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
                """)
            for row in keys { parents[try row.value("child", String.self), default: []].insert(try row.value("parent", String.self)) }
            return StoreCopy.Catalog(columns: columns, parents: parents)
        }
    }

    package func rowCount(_ table: String) async throws -> Int {
        try await read { db in
            try await db.one(PostgresQuery(unsafeSQL: "SELECT count(*) AS n FROM \(StoreCopy.quoted(table))"))?.value("n", Int.self) ?? 0
        }
    }

    /// The column a table is paged by, and whether it is text (compared byte by byte, as SQLite does):
    /// its serial column, else its primary key when that is one column; nil when it is read whole.
    private static func pagingKey(of table: String, db: PGConnection) async throws -> (column: String, isText: Bool)? {
        var bindings = PostgresBindings()
        bindings.append(table)
        let row = try await db.one(PostgresQuery(unsafeSQL: """
            SELECT column_name, data_type IN ('text', 'character varying') AS is_text FROM (
                SELECT column_name::text AS column_name, data_type::text AS data_type, 0 AS rank FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name::text = $1 AND column_default LIKE 'nextval(%'
                UNION ALL
                SELECT a.attname::text, format_type(a.atttypid, NULL), 1 FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                WHERE i.indrelid = to_regclass(quote_ident($1)) AND i.indisprimary AND i.indnatts = 1
            ) AS keys ORDER BY rank LIMIT 1
            """, binds: bindings))
        guard let row else { return nil }
        return (try row.value("column_name", String.self), try row.value("is_text", Bool.self))
    }

    package func rows(of table: StoreCopy.Table, after: StoreCopy.Value?, limit: Int) async throws
        -> (rows: [[StoreCopy.Value]], last: StoreCopy.Value?) {
        let columns = table.columns.map(StoreCopy.quoted).joined(separator: ", ")
        let name = StoreCopy.quoted(table.name)
        return try await read { db in
            guard let key = try await Self.pagingKey(of: table.name, db: db) else {
                let rows = try await db.all(PostgresQuery(unsafeSQL: "SELECT \(columns) FROM \(name)"))
                return (try rows.map { row in try table.columns.indices.map { try Self.copyValue(row[$0], table: table, column: $0) } }, nil)
            }
            let keyColumn = StoreCopy.quoted(key.column) + (key.isText ? " COLLATE \"C\"" : "")
            var bindings = PostgresBindings()
            var condition = ""
            if let after, after != .null {
                Self.bind(after, into: &bindings)
                condition = "WHERE \(keyColumn) > $1"
            }
            bindings.append(limit)
            let sql = "SELECT \(StoreCopy.quoted(key.column)) AS copy_key, \(columns) FROM \(name) \(condition) "
                + "ORDER BY \(keyColumn) LIMIT $\(bindings.count)"
            let rows = try await db.all(PostgresQuery(unsafeSQL: sql, binds: bindings))
            let values = try rows.map { row in try table.columns.indices.map { try Self.copyValue(row[$0 + 1], table: table, column: $0) } }
            let last = try rows.last.map { row in try Self.copyValue(row[0], table: table, column: nil) }
            return (values, last)
        }
    }

    package func replaceRows(from source: any StoreRowCopying, tables: [StoreCopy.Table], clearing: [String], totals: [String: Int],
                             replacing: Bool, progress: (@Sendable (StoreCopy.Progress) -> Void)?) async throws -> [String: Int] {
        do {
            let copied = try await bulkWrite { db in
                let users = try await db.one("SELECT count(*) AS n FROM users")?.value("n", Int.self) ?? 0
                let readings = try await db.one("SELECT count(*) AS n FROM messages")?.value("n", Int.self) ?? 0
                if users + readings > 0 {
                    guard replacing else { throw StoreCopy.notEmpty(location, users: users, readings: readings) }
                    for table in clearing { try await db.run(PostgresQuery(unsafeSQL: "DELETE FROM \(StoreCopy.quoted(table))")) }
                }
                var copied: [String: Int] = [:]
                for table in tables {
                    let types = try await Self.columnTypes(of: table, db: db)
                    var after: StoreCopy.Value?
                    var count = 0
                    // At most 65,535 parameters a statement.
                    let pageSize = min(StoreCopy.pageSize, 60_000 / max(table.columns.count, 1))
                    while true {
                        let page = try await source.rows(of: table, after: after, limit: pageSize)
                        if !page.rows.isEmpty { try await Self.insert(page.rows, into: table, types: types, db: db) }
                        count += page.rows.count
                        progress?(StoreCopy.Progress(table: table.name, copied: count, total: totals[table.name] ?? count))
                        guard page.rows.count == pageSize, let key = page.last else { break }
                        after = key
                    }
                    copied[table.name] = count
                }
                return copied
            }
            await upkeepAfterBulkLoad(of: tables.map(\.name))
            return copied
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    /// Each of `table`'s columns' type on this store (`udt_name`: bool, int4, int8, float8, text, bytea, …).
    private static func columnTypes(of table: StoreCopy.Table, db: PGConnection) async throws -> [String] {
        var bindings = PostgresBindings()
        bindings.append(table.name)
        var types: [String: String] = [:]
        for row in try await db.all(PostgresQuery(unsafeSQL: """
            SELECT column_name::text AS column_name, udt_name::text AS udt_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name::text = $1
            """, binds: bindings)) {
            types[try row.value("column_name", String.self)] = try row.value("udt_name", String.self)
        }
        return table.columns.map { types[$0] ?? "" }
    }

    private static func insert(_ rows: [[StoreCopy.Value]], into table: StoreCopy.Table, types: [String], db: PGConnection) async throws {
        var bindings = PostgresBindings(capacity: rows.count * table.columns.count)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            var placeholders: [String] = []
            for (value, type) in zip(row, types) {
                switch (value, type) {
                // SQLite keeps a boolean as 0/1.
                case (.integer(let number), "bool"): bindings.append(number != 0)
                // SQLite may keep a whole number of a REAL column as an integer.
                case (.integer(let number), "float4"), (.integer(let number), "float8"): bindings.append(Double(number))
                // An id a hand-made SQLite row keeps as text: its bytes as hmon keeps every other.
                case (.text(let text), "bytea"): bindings.append(ByteaID(text))
                default: bind(value, into: &bindings)
                }
                placeholders.append("$\(bindings.count)")
            }
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
        }
        let sql = "INSERT INTO \(StoreCopy.quoted(table.name)) (\(table.columns.map(StoreCopy.quoted).joined(separator: ", "))) VALUES "
            + tuples.joined(separator: ", ")
        try await db.run(PostgresQuery(unsafeSQL: sql, binds: bindings))
    }

    private static func bind(_ value: StoreCopy.Value, into bindings: inout PostgresBindings) {
        switch value {
        case .null: bindings.appendNull()
        case .integer(let number): bindings.append(number)
        case .real(let number): bindings.append(number)
        case .text(let text): bindings.append(text)
        case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
        }
    }

    /// A cell as the copy carries it, by the type the server says it has.
    private static func copyValue(_ cell: PostgresCell, table: StoreCopy.Table, column: Int?) throws -> StoreCopy.Value {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .text, .varchar, .bpchar, .name: return .text(try cell.decode(String.self))
        case .bytea: return .bytes(Array(try cell.decode(ByteBuffer.self).readableBytesView))
        default:
            let name = column.map { table.columns[$0] } ?? "its key"
            throw HealthError.unsupported("\(table.name).\(name) is of a type `hmon db copy` does not carry (\(cell.dataType)); nothing was copied")
        }
    }
}
