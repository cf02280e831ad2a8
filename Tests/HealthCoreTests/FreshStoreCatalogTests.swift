import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import PostgresStorage
@testable import SQLiteStorage

/// A new store's whole catalog, on each engine, against the one checked in (`Tests/Fixtures/schema/`): every
/// table, index, trigger and function as the database itself prints it, the migrations applied, and the
/// built-in device types and their fields row by row. The migrations are frozen (`Schema`, `PostgresSchema`,
/// `ShippedDeviceTypes`): nothing a shipped one does may change, so a new store comes out the same until a
/// new migration says otherwise, and then this file changes with it, reviewed.
///
/// `HMON_RECORD_SCHEMA_CATALOGS=1 swift test --skip-build --filter FreshStoreCatalogTests` rewrites the files
/// after a new migration.
@Suite struct FreshStoreCatalogTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schema", isDirectory: true)

    static var isRecording: Bool { ProcessInfo.processInfo.environment["HMON_RECORD_SCHEMA_CATALOGS"] == "1" }

    @Test func aNewSQLiteStoreHasTheCheckedInCatalog() throws {
        let scratch = try TemporaryFolder()
        let file = scratch.file("hmon.sqlite")
        _ = try LocalStore(url: file, passwordHasher: .fastForTests)
        try Self.compare(try Self.sqliteCatalog(file), with: "sqlite-catalog.txt")
    }

    @Test(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: \(TestPostgres.unavailableReason ?? "")"))
    func aNewPostgreSQLStoreHasTheCheckedInCatalog() async throws {
        let url = try await TestPostgres.newDatabase()
        _ = try await PostgresStore.open(try PostgresLocation(url), passwordHasher: .fastForTests, maximumConnections: 1)
        try Self.compare(try await Self.postgresCatalog(url), with: "postgres-catalog.txt")
    }

    /// Compares `catalog` with the checked-in file, naming the first line that differs.
    static func compare(_ catalog: String, with name: String) throws {
        let file = folder.appendingPathComponent(name)
        if isRecording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try catalog.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        guard catalog != expected else { return }
        let now = catalog.components(separatedBy: "\n"), then = expected.components(separatedBy: "\n")
        let line = zip(now, then).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(now.count, then.count)
        Issue.record("""
            a new store's catalog is not \(name)'s: line \(line + 1) is \
            \(line < now.count ? now[line] : "(the end)") instead of \(line < then.count ? then[line] : "(the end)"). \
            A shipped migration must not change; a new one rewrites the file \
            (HMON_RECORD_SCHEMA_CATALOGS=1 swift test --skip-build --filter FreshStoreCatalogTests).
            """)
    }

    /// What SQLite keeps of the schema (`sqlite3 hmon.sqlite .schema`, and the entries' order and kinds), the ids
    /// it is marked with, the migrations applied, and the built-in device types' rows in their stored order.
    static func sqliteCatalog(_ file: URL) throws -> String {
        try DatabaseQueue(path: file.path).read { db in
            var lines = ["-- pragmas"]
            for pragma in ["application_id", "user_version"] {
                lines.append("\(pragma) = \(try Int.fetchOne(db, sql: "PRAGMA \(pragma)") ?? 0)")
            }
            lines.append("-- sqlite_master, in its own order")
            for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid") {
                lines.append("\(row["type"] as String) \(row["name"] as String) on \(row["tbl_name"] as String): \(row["sql"] as String? ?? "(automatic)")")
            }
            lines.append("-- migrations applied")
            lines += try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            lines += try rows(db, "device_types", "id, name, unique_name, description, latest_version")
            lines += try rows(db, "device_type_fields", "dtid, position, name, type, unit, description")
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private static func rows(_ db: Database, _ table: String, _ columns: String) throws -> [String] {
        ["-- \(table) (\(columns)), in rowid order"] + (try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table) ORDER BY rowid")).map { row in
            row.databaseValues.map { $0.isNull ? "NULL" : $0.description }.joined(separator: " | ")
        }
    }

    /// The public schema as PostgreSQL describes it: tables and their persistence, columns with types, collations,
    /// defaults and generation, constraints, indexes, triggers and functions as the server prints their
    /// definitions, the schema version, and the built-in device types' rows.
    static func postgresCatalog(_ url: String) async throws -> String {
        let sections: [(String, String)] = [
            ("tables", """
                SELECT c.relname, c.relkind, c.relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S') ORDER BY c.relname
                """),
            ("columns", """
                SELECT table_name, ordinal_position, column_name, data_type, is_nullable, coalesce(collation_name, ''),
                       coalesce(column_default, ''), is_generated, coalesce(generation_expression, '')
                FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
                """),
            ("constraints", """
                SELECT t.relname, c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c
                JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
                WHERE n.nspname = 'public' ORDER BY t.relname, c.conname
                """),
            ("indexes", "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname"),
            ("triggers", """
                SELECT t.relname, g.tgname, pg_get_triggerdef(g.oid) FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid
                JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND NOT g.tgisinternal ORDER BY t.relname, g.tgname
                """),
            ("functions", """
                SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE n.nspname = 'public' ORDER BY p.proname
                """),
            ("hmon_meta (application, version)", "SELECT application, version FROM hmon_meta"),
            ("device_types", "SELECT id, name, unique_name, coalesce(description, 'NULL'), latest_version FROM device_types ORDER BY id"),
            ("device_type_fields", """
                SELECT dtid, position, name, type, coalesce(unit, 'NULL'), description FROM device_type_fields ORDER BY dtid, position
                """),
        ]
        var text = ""
        for (title, sql) in sections {
            text += "-- \(title)\n" + (try await TestPostgres.query(url, sql)) + "\n"
        }
        return text
    }
}
