import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import PostgresStorage
@testable import SQLiteStorage

/// Every table is defined twice, once per engine (rendering both from one description would rewrite
/// shipped migrations; reading both live catalogs catches the same drift). A new store of each engine is
/// opened, and their catalogs must agree on tables, columns, types by their real width, nullability,
/// defaults and indexed columns, but for the differences listed here, each with its reason and each checked
/// to still be one.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: \(TestPostgres.unavailableReason ?? "")"))
struct SchemaAgreementTests {
    /// A column as both catalogs can describe it.
    struct Column: Hashable, CustomStringConvertible {
        var table: String
        var name: String
        var type: String
        var notNull: Bool
        var hasDefault: Bool
        var description: String { "\(table).\(name) \(type)\(notNull ? " not null" : "")\(hasDefault ? " default" : "")" }
    }

    /// Tables only one engine has, and why.
    static let ownTables: [String: String] = [
        "grdb_migrations": "GRDB's record of applied SQLite migrations; PostgreSQL keeps its version in hmon_meta",
        "hmon_meta": "PostgreSQL's schema version and owner mark; SQLite has user_version and grdb_migrations",
        "reading_day_versions": "PostgreSQL's check of its kept day sums; SQLite sums the days' rowids instead",
        "field_change_kinds": "PostgreSQL's copy of the kinds' table for the triggers that announce writes; SQLite announces nothing",
        "pending_announcements": "PostgreSQL's notes of what a write changed until it commits; SQLite announces nothing",
    ]

    /// Columns that differ on purpose, and why.
    static let ownColumns: [String: String] = [
        "messages.seq": "PostgreSQL's insertion order (SQLite has its rowid)",
        "devices.seq": "PostgreSQL's insertion order (SQLite has its rowid)",
    ]

    /// SQLite's declared types as the PostgreSQL type that holds the same values: its INTEGER is 64 bits
    /// and its REAL an 8-byte double, whatever width the declaration suggests.
    static func normalised(sqlite type: String) -> String {
        switch type.uppercased() {
        case "TEXT": "text"
        case "INTEGER": "bigint"
        case "REAL": "double precision"
        case "BLOB": "bytea"
        default: "sqlite \(type)"
        }
    }

    /// Columns whose type differs on purpose, as SQLite's type becomes on PostgreSQL, with why.
    static let ownTypes: [String: (postgres: String, reason: String)] = [
        // SQLite has no boolean and keeps 0/1 in an INTEGER column (`hmon db copy` turns one into the other).
        "devices.connected": ("boolean", "a boolean, kept by SQLite as 0/1"),
        // 32 bits on PostgreSQL since its first schema: each holds a built-in device type's manifest version
        // or a field's position in it, which hmon sets from its own small numbers.
        "device_types.latest_version": ("integer", "a manifest version"),
        "device_type_fields.position": ("integer", "a field's position in its manifest"),
        "devices.manifest_version": ("integer", "its device type's manifest version"),
        "messages.mv": ("integer", "its device's manifest version"),
    ]

    @Test func bothEnginesDefineTheSameTablesColumnsAndIndexes() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("hmon.sqlite")
        _ = try LocalStore(url: file, passwordHasher: .fastForTests)
        let url = try await TestPostgres.newDatabase()
        _ = try await PostgresStore.open(try PostgresLocation(url), passwordHasher: .fastForTests, maximumConnections: 1)

        let sqlite = try Self.sqliteCatalog(file)
        let postgres = try Self.postgresCatalog(url)
        let sqliteTables = Set(sqlite.columns.map(\.table)), postgresTables = Set(postgres.columns.map(\.table))
        let tables = sqliteTables.intersection(postgresTables)
        #expect(sqliteTables.symmetricDifference(postgresTables).subtracting(Self.ownTables.keys).isEmpty,
                "tables on one engine only: \(sqliteTables.subtracting(postgresTables).sorted()) (SQLite), \(postgresTables.subtracting(sqliteTables).sorted()) (PostgreSQL)")

        // No exemption outlives its reason: each names a table one engine lacks, a column one engine lacks, or a
        // column both have whose types differ as it says.
        let oneEngineOnly = sqliteTables.symmetricDifference(postgresTables)
        #expect(Set(Self.ownTables.keys).subtracting(oneEngineOnly).isEmpty, "stale table exemptions: \(Set(Self.ownTables.keys).subtracting(oneEngineOnly).sorted())")
        let sqliteNames = Set(sqlite.columns.map { "\($0.table).\($0.name)" }), postgresNames = Set(postgres.columns.map { "\($0.table).\($0.name)" })
        let columnOnOneEngine = sqliteNames.symmetricDifference(postgresNames)
        #expect(Set(Self.ownColumns.keys).subtracting(columnOnOneEngine).isEmpty,
                "stale column exemptions: \(Set(Self.ownColumns.keys).subtracting(columnOnOneEngine).sorted())")
        for (name, own) in Self.ownTypes {
            let onSQLite = sqlite.columns.first { "\($0.table).\($0.name)" == name }?.type
            let onPostgres = postgres.columns.first { "\($0.table).\($0.name)" == name }?.type
            #expect(onSQLite == "bigint" && onPostgres == own.postgres,
                    "\(name) is said to be \(own.postgres) on PostgreSQL (\(own.reason)): it is \(onSQLite ?? "absent") on SQLite, \(onPostgres ?? "absent") on PostgreSQL")
        }

        // Types compared as each engine really keeps them (SQLite's INTEGER as bigint, so a PostgreSQL integer or
        // smallint column is a difference), but for the exemptions above.
        func comparable(_ columns: [Column], sqlite: Bool) -> Set<Column> {
            Set(columns.filter { tables.contains($0.table) && Self.ownColumns["\($0.table).\($0.name)"] == nil }
                .map { column in
                    var column = column
                    if sqlite, let own = Self.ownTypes["\(column.table).\(column.name)"] { column.type = own.postgres }
                    return column
                })
        }
        let onlySQLite = comparable(sqlite.columns, sqlite: true).subtracting(comparable(postgres.columns, sqlite: false))
        let onlyPostgres = comparable(postgres.columns, sqlite: false).subtracting(comparable(sqlite.columns, sqlite: true))
        #expect(onlySQLite.isEmpty && onlyPostgres.isEmpty,
                "columns that differ — SQLite: \(onlySQLite.map(\.description).sorted()); PostgreSQL: \(onlyPostgres.map(\.description).sorted())")

        let sqliteIndexes = sqlite.indexes.filter { tables.contains($0.table) }
        let postgresIndexes = postgres.indexes.filter { tables.contains($0.table) }
        #expect(sqliteIndexes == postgresIndexes,
                "indexed columns differ — SQLite only: \(sqliteIndexes.subtracting(postgresIndexes).sorted { "\($0)" < "\($1)" }); PostgreSQL only: \(postgresIndexes.subtracting(sqliteIndexes).sorted { "\($0)" < "\($1)" })")
    }

    /// The two engines' migration lists took different numbers up to 15 (SQLite 1–11, 13, 14; PostgreSQL
    /// 1–10, 13, 15). From 16 on a migration has the same number on both, so a schema version names one
    /// schema whichever engine keeps it.
    static let firstSharedMigration = 16

    @Test func fromSixteenOnBothEnginesNumberTheirMigrationsAlike() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("hmon.sqlite")
        _ = try LocalStore(url: file, passwordHasher: .fastForTests)
        let applied = try DatabaseQueue(path: file.path).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        let sqlite = applied.compactMap { identifier -> Int? in
            guard identifier.hasPrefix("v"), let colon = identifier.firstIndex(of: ":") else { return nil }
            return Int(identifier[identifier.index(after: identifier.startIndex)..<colon])
        }
        #expect(sqlite.count == applied.count, "every SQLite migration is named \"vN: …\": \(applied)")
        let postgres = PostgresSchema.migrations.map(\.version)
        #expect(Set(sqlite.filter { $0 >= Self.firstSharedMigration }) == Set(postgres.filter { $0 >= Self.firstSharedMigration }),
                "SQLite \(sqlite), PostgreSQL \(postgres)")
        #expect(sqlite.max()! < Self.firstSharedMigration || sqlite.max() == postgres.max())
    }

    /// An index as both engines can compare it: its table, its key columns in order, and whether it is unique.
    struct Index: Hashable, CustomStringConvertible {
        var table: String
        var columns: [String]
        var unique: Bool
        var description: String { "\(table)(\(columns.joined(separator: ", ")))\(unique ? " unique" : "")" }
    }

    static func sqliteCatalog(_ file: URL) throws -> (columns: [Column], indexes: Set<Index>) {
        let queue = try DatabaseQueue(path: file.path)
        return try queue.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            var columns: [Column] = []
            var indexes: Set<Index> = []
            for table in tables {
                for row in try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_xinfo(?)", arguments: [table]) {
                    let primaryKey: Int = row["pk"]
                    columns.append(Column(table: table, name: row["name"], type: normalised(sqlite: row["type"]),
                                          notNull: (row["notnull"] as Int) == 1 || primaryKey > 0,
                                          hasDefault: (row["dflt_value"] as String?) != nil))
                }
                for index in try Row.fetchAll(db, sql: "SELECT name, \"unique\" FROM pragma_index_list(?)", arguments: [table]) {
                    let names = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno",
                                                    arguments: [index["name"] as String])
                    indexes.insert(Index(table: table, columns: names, unique: (index["unique"] as Int) == 1))
                }
                // A primary key SQLite keeps in the table itself (INTEGER PRIMARY KEY, WITHOUT ROWID) has no index entry.
                let key = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table])
                if !key.isEmpty { indexes.insert(Index(table: table, columns: key, unique: true)) }
            }
            return (columns, indexes)
        }
    }

    static func postgresCatalog(_ url: String) throws -> (columns: [Column], indexes: Set<Index>) {
        let columnRows = try TestPostgres.psql(url, """
            SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, '')
            FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """)
        let columns = columnRows.split(separator: "\n").map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return Column(table: cells[0], name: cells[1], type: cells[2], notNull: cells[3] == "NO",
                          hasDefault: !cells[4].isEmpty && !cells[4].hasPrefix("nextval("))
        }
        // Every column an index holds, its INCLUDE columns too: SQLite has no INCLUDE, and covers a query by
        // putting the same columns in the key.
        let indexRows = try TestPostgres.psql(url, """
            SELECT t.relname, ix.indisunique,
                   (SELECT string_agg(pg_get_indexdef(ix.indexrelid, k, true), ',' ORDER BY k)
                    FROM generate_series(1, ix.indnatts) AS k)
            FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = 'public'
            """)
        let indexes = Set(indexRows.split(separator: "\n").map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let columns = cells[2].split(separator: ",").map(String.init)
                // `seq` is PostgreSQL's insertion order, where SQLite's rowid sits in every index anyway.
                .filter { $0 != "seq" }
                // A unique lower(name) is how PostgreSQL says SQLite's `name COLLATE NOCASE UNIQUE`.
                .map { $0.hasPrefix("lower(") && $0.hasSuffix(")") ? String($0.dropFirst(6).dropLast()) : $0 }
            return Index(table: cells[0], columns: columns, unique: cells[1] == "t")
        })
        return (columns, indexes)
    }
}
