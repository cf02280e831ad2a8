import Foundation
import GRDB
import Synchronization
import HealthCore
import HealthModel

/// `StoreCopy` on SQLite: pages by rowid; the target's rows are written in one write transaction.
extension LocalStore: StoreRowCopying {
    package func copyCatalog() async throws -> StoreCopy.Catalog {
        try await read { db in
            var columns: [String: [String]] = [:]
            var parents: [String: Set<String>] = [:]
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            for table in tables {
                // `hidden` is 0 for a column a row is written with (generated columns are 2 or 3).
                columns[table] = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid",
                                                     arguments: [table])
                parents[table] = Set(try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [table]))
            }
            return StoreCopy.Catalog(columns: columns, parents: parents)
        }
    }

    package func rowCount(_ table: String) async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(StoreCopy.quoted(table))") ?? 0 }
    }

    package func rows(of table: StoreCopy.Table, after: StoreCopy.Value?, limit: Int) async throws
        -> (rows: [[StoreCopy.Value]], last: StoreCopy.Value?) {
        let columns = table.columns.map(StoreCopy.quoted).joined(separator: ", ")
        let name = StoreCopy.quoted(table.name)
        var start = Int64.min
        if case .integer(let key) = after { start = key }
        let from = start
        return try await read { db in
            // A table kept WITHOUT ROWID (the small Exist ones) has no rowid to page by: it is read whole.
            let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                                 arguments: [table.name]) ?? ""
            if definition.uppercased().contains("WITHOUT ROWID") {
                return (try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(name)").map { row in
                    table.columns.indices.map { Self.copyValue(row[$0] as DatabaseValue) }
                }, nil)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(columns) FROM \(name) WHERE rowid > ? ORDER BY rowid LIMIT ?",
                                        arguments: [from, limit])
            let values = rows.map { row in table.columns.indices.map { Self.copyValue(row[$0 + 1] as DatabaseValue) } }
            return (values, rows.last.map { .integer($0[0]) })
        }
    }

    package func replaceRows(from source: any StoreRowCopying, tables: [StoreCopy.Table], clearing: [String], totals: [String: Int],
                             replacing: Bool, progress: (@Sendable (StoreCopy.Progress) -> Void)?) async throws -> [String: Int] {
        let location = self.location
        return try await write { db in
            let users = try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0
            let readings = try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0
            if users + readings > 0 {
                guard replacing else { throw StoreCopy.notEmpty(location, users: users, readings: readings) }
                for table in clearing { try db.execute(sql: "DELETE FROM \(StoreCopy.quoted(table))") }
            }
            var copied: [String: Int] = [:]
            for table in tables {
                let names = table.columns.map(StoreCopy.quoted)
                let statement = try db.makeStatement(sql: """
                    INSERT INTO \(StoreCopy.quoted(table.name)) (\(names.joined(separator: ", "))) \
                    VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))
                    """)
                var after: StoreCopy.Value?
                var count = 0
                while true {
                    // The write transaction runs on GRDB's writer queue, not on Swift's cooperative
                    // threads, so waiting there for the source's next page blocks nothing it needs.
                    let last = after
                    let page = try Self.waiting { try await source.rows(of: table, after: last, limit: StoreCopy.pageSize) }
                    for row in page.rows {
                        try statement.execute(arguments: StatementArguments(row.map(Self.databaseValue)))
                    }
                    count += page.rows.count
                    progress?(StoreCopy.Progress(table: table.name, copied: count, total: totals[table.name] ?? count))
                    guard page.rows.count == StoreCopy.pageSize, let key = page.last else { break }
                    after = key
                }
                copied[table.name] = count
            }
            return copied
        }
    }

    private static func copyValue(_ value: DatabaseValue) -> StoreCopy.Value {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .bytes(Array(data))
        }
    }

    private static func databaseValue(_ value: StoreCopy.Value) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .bytes(let bytes): Data(bytes).databaseValue
        }
    }

    /// Runs `operation` and waits for it on this (non-cooperative) thread.
    private static func waiting<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await operation()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
