import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import PostgresStorage
@testable import SQLiteStorage

/// One description of a table renders to both engines' SQL (`TableDescription`), for the tables migrations
/// create from now on. Checked against tables both engines already have, each written twice by hand: a new
/// store whose table is dropped and made again from its description must have the same catalog (columns,
/// types, nullability, defaults, indexes, foreign keys, and SQLite's `WITHOUT ROWID`) as a new store as
/// shipped.
@Suite struct TableDescriptionTests {
    static let described: [TableDescription] = [
        TableDescription("undo_journal", columns: [
            .init("user_id", .text, cascadesFrom: "users(id)"), .init("session", .text), .init("step", .integer),
            .init("kind", .text), .init("reading", .text), .init("made_at", .integer),
        ], primaryKey: ["user_id", "session", "step"], indexes: [.init("undo_journal_by_age", ["user_id", "made_at"])]),
        TableDescription("link_arrivals", columns: [
            .init("link_id", .text, cascadesFrom: "push_links(id)"), .init("day", .integer), .init("kind", .text),
            .init("readings", .integer),
        ], primaryKey: ["link_id", "day", "kind"], clusteredByKey: true),
        TableDescription("source_orders", columns: [
            .init("user_id", .text, cascadesFrom: "users(id)"), .init("family", .text), .init("preferred", .text),
        ], primaryKey: ["user_id", "family"], clusteredByKey: true),
        TableDescription("exist_pushed", columns: [
            .init("server", .text), .init("uid", .text, cascadesFrom: "users(id)"), .init("attribute", .text),
            .init("day", .text), .init("value", .real),
        ], primaryKey: ["server", "uid", "attribute", "day"], clusteredByKey: true),
    ]

    @Test(arguments: described.map(\.name))
    func onSQLiteADescribedTableIsTheShippedOne(_ name: String) throws {
        let table = try #require(Self.described.first { $0.name == name })
        let folder = try TemporaryFolder()
        let shipped = folder.file("shipped.sqlite"), rendered = folder.file("rendered.sqlite")
        _ = try LocalStore(url: shipped, passwordHasher: .fastForTests)
        _ = try LocalStore(url: rendered, passwordHasher: .fastForTests)
        try DatabaseQueue(path: rendered.path).inDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "DROP TABLE \(name)")
            for statement in table.sqlite { try db.execute(sql: statement) }
        }
        func catalog(_ file: URL) throws -> (columns: Set<SchemaAgreementTests.Column>, indexes: Set<SchemaAgreementTests.Index>, keys: [String], clustered: Bool) {
            let whole = try SchemaAgreementTests.sqliteCatalog(file)
            return try DatabaseQueue(path: file.path).read { db in
                (Set(whole.columns.filter { $0.table == name }), whole.indexes.filter { $0.table == name },
                 try Row.fetchAll(db, sql: "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id", arguments: [name])
                    .map { "\($0["from"] as String) -> \($0["table"] as String)(\($0["to"] as String)) \($0["on_delete"] as String)" },
                 (try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]) ?? "")
                    .hasSuffix("WITHOUT ROWID"))
            }
        }
        let want = try catalog(shipped), got = try catalog(rendered)
        #expect(got.columns == want.columns, "columns: \(got.columns.subtracting(want.columns)) rendered, \(want.columns.subtracting(got.columns)) shipped")
        #expect(got.indexes == want.indexes)
        #expect(got.keys == want.keys)
        #expect(got.clustered == want.clustered)
    }

    @Test(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: \(TestPostgres.unavailableReason ?? "")"), arguments: described.map(\.name))
    func onPostgreSQLADescribedTableIsTheShippedOne(_ name: String) async throws {
        let table = try #require(Self.described.first { $0.name == name })
        let shipped = try await TestPostgres.newDatabase(), rendered = try await TestPostgres.newDatabase()
        _ = try await PostgresStore.open(try PostgresLocation(shipped), passwordHasher: .fastForTests, maximumConnections: 1)
        _ = try await PostgresStore.open(try PostgresLocation(rendered), passwordHasher: .fastForTests, maximumConnections: 1)
        _ = try await TestPostgres.query(rendered, (["DROP TABLE \(name)"] + table.postgres).joined(separator: ";\n"))
        func catalog(_ url: String) async throws -> (columns: Set<SchemaAgreementTests.Column>, indexes: Set<SchemaAgreementTests.Index>, constraints: String) {
            let whole = try SchemaAgreementTests.postgresCatalog(url)
            let constraints = try await TestPostgres.query(url, """
                SELECT c.contype, pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
                WHERE t.relname = '\(name)' ORDER BY 1, 2
                """)
            return (Set(whole.columns.filter { $0.table == name }), whole.indexes.filter { $0.table == name }, constraints)
        }
        let want = try await catalog(shipped), got = try await catalog(rendered)
        #expect(got.columns == want.columns, "columns: \(got.columns.subtracting(want.columns)) rendered, \(want.columns.subtracting(got.columns)) shipped")
        #expect(got.indexes == want.indexes)
        #expect(got.constraints == want.constraints)
    }

    @Test func theRenderedSQLReadsAsExpected() {
        let table = TableDescription("notes", columns: [
            .init("user_id", .text, cascadesFrom: "users(id)"), .init("at", .integer), .init("body", .text, notNull: false),
            .init("flag", .integer, defaultValue: "0"),
        ], primaryKey: ["user_id", "at"], clusteredByKey: true, indexes: [.init("notes_by_flag", ["flag"])])
        #expect(table.sqlite == [
            """
            CREATE TABLE notes (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                at INTEGER NOT NULL,
                body TEXT,
                flag INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, at)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX notes_by_flag ON notes(flag)",
        ])
        #expect(table.postgres == [
            """
            CREATE TABLE notes (
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                at bigint NOT NULL,
                body text,
                flag bigint NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, at)
            )
            """,
            "CREATE INDEX notes_by_flag ON notes (flag)",
        ])
    }
}
