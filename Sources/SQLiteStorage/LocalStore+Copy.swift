import Foundation
import GRDB
import Synchronization
import HealthCore
import HealthModel

/// `StoreCopy` on SQLite: pages by rowid; the target's rows are written in one write transaction.
extension LocalStore: StoreRowCopying {
    package func rowCount(_ table: String) async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    package func rows(of table: StoreCopy.Table, after: StoreCopy.Value?, limit: Int) async throws
        -> (rows: [[StoreCopy.Value]], last: StoreCopy.Value?) {
        let columns = table.columns.map(\.name).joined(separator: ", ")
        var start = Int64.min
        if case .integer(let key) = after { start = key }
        let from = start
        if StoreCopy.unpaged.contains(table.name) {
            return try await read { db in
                (try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table.name)").map { row in
                    table.columns.enumerated().map { index, column in Self.copyValue(row[index] as DatabaseValue, kind: column.kind) }
                }, nil)
            }
        }
        return try await read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(columns) FROM \(table.name) WHERE rowid > ? ORDER BY rowid LIMIT ?",
                                        arguments: [from, limit])
            let values = rows.map { row in
                table.columns.enumerated().map { index, column in Self.copyValue(row[index + 1] as DatabaseValue, kind: column.kind) }
            }
            return (values, rows.last.map { .integer($0[0]) })
        }
    }

    package func replaceRows(from source: any StoreRowCopying, totals: [String: Int], replacing: Bool,
                     progress: (@Sendable (StoreCopy.Progress) -> Void)?) async throws -> [String: Int] {
        let location = self.location
        return try await write { db in
            let users = try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0
            let readings = try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? 0
            if users + readings > 0 {
                guard replacing else { throw StoreCopy.notEmpty(location, users: users, readings: readings) }
                for table in StoreCopy.tables.reversed() { try db.execute(sql: "DELETE FROM \(table.name)") }
                try db.execute(sql: "DELETE FROM day_totals_cache")
            }
            var copied: [String: Int] = [:]
            for table in StoreCopy.tables {
                let names = table.columns.map(\.name)
                let statement = try db.makeStatement(sql: """
                    INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))
                    """)
                var after: StoreCopy.Value?
                var count = 0
                while true {
                    // The write transaction runs on GRDB's writer queue, not on Swift's cooperative
                    // threads, so waiting there for the source's next page blocks nothing it needs.
                    let last = after
                    let page = try Self.waiting { try await source.rows(of: table, after: last, limit: StoreCopy.pageSize) }
                    for row in page.rows {
                        try statement.execute(arguments: StatementArguments(zip(row, table.columns).map { value, column in
                            Self.databaseValue(value, kind: column.kind)
                        }))
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

    private static func copyValue(_ value: DatabaseValue, kind: StoreCopy.Kind) -> StoreCopy.Value {
        if kind == .id, let id = StoredID.fromDatabaseValue(value) { return .text(id.id) }
        return switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
        }
    }

    private static func databaseValue(_ value: StoreCopy.Value, kind: StoreCopy.Kind) -> DatabaseValue {
        if kind == .id, case .text(let id) = value { return StoredID(id).databaseValue }
        return switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
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
