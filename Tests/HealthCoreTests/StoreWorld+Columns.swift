import Foundation
import GRDB
import Testing
import TestSupport
@testable import HealthCore
@testable import SQLiteStorage
@testable import PostgresStorage

/// Reading a store's tables cell by cell, exactly, to see what `hmon db copy` moved: each value as its kind
/// and its exact contents (a double by its bits, bytes as hex), so nothing that changed on the way compares
/// equal.
extension StoreWorld {
    /// Runs a statement on this store (for PostgreSQL through psql, off the task pool).
    func execute(_ sql: String) async throws {
        if let local = store as? LocalStore {
            try await local.write { db in try db.execute(sql: sql) }
            return
        }
        let url = try #require(postgresURL)
        _ = try await offThePool { try TestPostgres.psql(url, sql) }
    }

    /// The tables and columns `hmon db copy` must carry out of this SQLite store, read from its catalog here
    /// rather than taken from the copy's own plan (which would then check itself): every column of every
    /// table but the tables `StoreCopy.notCopied` names.
    func columnsToCopy() async throws -> [StoreCopy.Table] {
        let local = try #require(store as? LocalStore)
        return try await local.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                .filter { StoreCopy.notCopied[$0] == nil }
                .map { table in
                    StoreCopy.Table(name: table, columns: try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid", arguments: [table]))
                }
        }
    }

    /// Each of `tables`' columns ("table.column") with its values in its table's primary-key order: `null`,
    /// `i:` an integer (a boolean as 0/1, as SQLite keeps it), `r:` a double by its bits, `t:` text, `b:` hex bytes.
    func values(of tables: [StoreCopy.Table]) async throws -> [String: [String]] {
        var columns: [String: [String]] = [:]
        for table in tables {
            for column in table.columns {
                columns["\(table.name).\(column)"] = try await values(of: column, in: table.name).map(Self.exact)
            }
        }
        return columns
    }

    private func values(of column: String, in table: String) async throws -> [String] {
        let quoted = StoreCopy.quoted(column), name = StoreCopy.quoted(table)
        if let local = store as? LocalStore {
            return try await local.read { db in
                let key = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table])
                // Read as values, not as SQLite's text: its printf gives a double at most 16 digits.
                return try DatabaseValue.fetchAll(db, sql: "SELECT \(quoted) FROM \(name) ORDER BY \(key.map(StoreCopy.quoted).joined(separator: ", "))")
                    .map { value in
                        switch value.storage {
                        case .null: "null"
                        case .int64(let number): "i:\(number)"
                        case .double(let number): "r:\(number)"
                        case .string(let text): "t:\(text)"
                        case .blob(let bytes): "b:" + bytes.map { String(format: "%02x", $0) }.joined()
                        }
                    }
            }
        }
        let url = try #require(postgresURL)
        let type = try await psql(url, """
            SELECT udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)' AND column_name = '\(column)'
            """).first ?? ""
        let key = try await psql(url, """
            SELECT quote_ident(a.attname) || CASE WHEN a.atttypid IN ('text'::regtype, 'varchar'::regtype) THEN ' COLLATE "C"' ELSE '' END
            FROM pg_index i JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n) ON true
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
            WHERE i.indrelid = '\(name)'::regclass AND i.indisprimary ORDER BY k.n
            """)
        let value = switch type {
        case "bool": "'i:' || CASE WHEN \(quoted) THEN 1 ELSE 0 END"
        case "int2", "int4", "int8": "'i:' || \(quoted)"
        // PostgreSQL's text for a double is the shortest that reads back as the same double.
        case "float4", "float8": "'r:' || \(quoted)::text"
        case "bytea": "'b:' || encode(\(quoted), 'hex')"
        default: "'t:' || \(quoted)"
        }
        return try await psql(url, "SELECT coalesce(\(value), 'null') FROM \(name) ORDER BY \(key.joined(separator: ", "))")
    }

    private func psql(_ url: String, _ sql: String) async throws -> [String] {
        let output = try await offThePool { try TestPostgres.psql(url, sql) }
        return output.isEmpty ? [] : output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A double by its bits, whichever engine printed it.
    private static func exact(_ value: String) -> String {
        guard value.hasPrefix("r:"), let number = Double(value.dropFirst(2)) else { return value }
        return "r:\(number.bitPattern)"
    }
}
