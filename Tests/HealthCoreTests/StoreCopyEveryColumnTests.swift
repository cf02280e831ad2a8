import Foundation
import GRDB
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// `hmon db copy` moves every column of every table it copies, whatever the column is called and whether
/// or not any list in hmon names it: a store whose every cell holds a value (numbers past 32 bits, doubles
/// no shorter text names, bytes that are not UTF-8) goes to PostgreSQL and back to SQLite, and each column
/// is compared cell by cell.
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct StoreCopyEveryColumnTests {
    /// Columns no hmon migration makes, added to both engines as a later migration would add them.
    static let addedLater = [
        (table: "profiles", column: "added_later", sqlite: "INTEGER", postgres: "bigint"),
        (table: "messages", column: "added_bytes", sqlite: "BLOB", postgres: "bytea"),
    ]

    @Test func everyColumnOfEveryCopiedTableArrivesOnPostgreSQLAndBack() async throws {
        let original = try await StoreWorld(.sqlite)
        let postgres = try await StoreWorld(.postgres)
        let back = try await StoreWorld(.sqlite)
        for added in Self.addedLater {
            for world in [original, back] { try await world.execute("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.sqlite)") }
            try await postgres.execute("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.postgres)")
        }
        try await StoreCopyTests.fill(original)
        let columns = try await original.columnsToCopy()
        try await Self.fillEveryCell(of: columns, in: try #require(original.store as? LocalStore))

        let before = try await original.values(of: columns)
        for (column, values) in before.sorted(by: { $0.key < $1.key }) {
            #expect(!values.isEmpty && !values.contains("null"), "\(column) is not filled in every row: \(values)")
        }
        for added in Self.addedLater { #expect(before["\(added.table).\(added.column)"] != nil, "\(added.table).\(added.column) is not copied") }

        try await StoreCopy.copy(from: original.store, to: postgres.store)
        try await StoreCopy.copy(from: postgres.store, to: back.store)
        for (world, name) in [(postgres, "PostgreSQL"), (back, "SQLite, copied back")] {
            let after = try await world.values(of: columns)
            for (column, values) in before.sorted(by: { $0.key < $1.key }) {
                #expect(after[column] == values, "\(column) did not arrive as it was on \(name)")
            }
        }
    }

    /// Gives every cell the fill left empty a value, and every copied table the fill left empty a row, by the
    /// column's declared type: text, an integer past 32 bits, a double with all its digits, bytes that are not
    /// UTF-8; a foreign key takes a row of the table it refers to.
    static func fillEveryCell(of tables: [StoreCopy.Table], in store: LocalStore) async throws {
        try await store.write { db in
            for table in tables {
                let name = StoreCopy.quoted(table.name)
                var foreignKeys: [String: DatabaseValue] = [:]
                for key in try Row.fetchAll(db, sql: "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?)", arguments: [table.name]) {
                    let column: String = key["from"], parent: String = key["table"]
                    let target = (key["to"] as String?) ?? "rowid"
                    foreignKeys[column] = try DatabaseValue.fetchOne(
                        db, sql: "SELECT \(StoreCopy.quoted(target)) FROM \(StoreCopy.quoted(parent)) ORDER BY rowid LIMIT 1")
                }
                var declared: [String: String] = [:]
                for column in try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table.name]) {
                    let columnName: String = column["name"], type: String = column["type"]
                    declared[columnName] = type.uppercased()
                }
                let references = foreignKeys, types = declared
                func value(_ column: String, _ row: Int) -> DatabaseValue {
                    if let reference = references[column] { return reference }
                    return switch types[column] ?? "" {
                    case "INTEGER": ((Int64(1) << 40) + Int64(row)).databaseValue
                    case "REAL": (Double(row) + 1.0 / 3.0).databaseValue
                    case "BLOB": Data([0x00, 0xFF, UInt8(row % 256), 0x80]).databaseValue
                    default: "\(table.name).\(column) #\(row) ü".databaseValue
                    }
                }
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name)") == 0 {
                    try db.execute(sql: "INSERT INTO \(name) (\(table.columns.map(StoreCopy.quoted).joined(separator: ", "))) "
                                   + "VALUES (\(table.columns.map { _ in "?" }.joined(separator: ", ")))",
                                   arguments: StatementArguments(table.columns.map { value($0, 0) }))
                }
                let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table.name]) ?? ""
                for column in table.columns {
                    let quoted = StoreCopy.quoted(column)
                    if definition.uppercased().contains("WITHOUT ROWID") {
                        try db.execute(sql: "UPDATE \(name) SET \(quoted) = ? WHERE \(quoted) IS NULL", arguments: [value(column, 1)])
                        continue
                    }
                    for rowid in try Int64.fetchAll(db, sql: "SELECT rowid FROM \(name) WHERE \(quoted) IS NULL") {
                        try db.execute(sql: "UPDATE \(name) SET \(quoted) = ? WHERE rowid = ?", arguments: [value(column, Int(rowid)), rowid])
                    }
                }
            }
        }
    }
}
