import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import PostgresStorage
@testable import SQLiteStorage

/// The migrations are frozen (`ShippedDeviceTypes`, `Schema`, `PostgresSchema`): they write literals, so a kind
/// edited in the table (its unit, its wording, a new kind) reaches no store until a new migration says so.
/// These tests catch the migration forgotten: a new store must end with today's built-in manifests, field for
/// field, on both engines, and each kind's `addedInSchema` must name the version that appends it.
@Suite struct ShippedDeviceTypesTests {
    /// A field row as both engines and the manifests can say it.
    static func line(_ dtid: String, _ name: String, _ type: String, _ unit: String?, _ description: String) -> String {
        "\(dtid)|\(name)|\(type)|\(unit ?? "NULL")|\(description)"
    }

    /// Today's built-in types and their fields, from the kinds' table and the manifests.
    static var todaysTypes: [String] {
        BuiltInDeviceType.allCases.map { type in
            let row = type.deviceType
            return "\(row.id)|\(row.name)|\(row.uniqueName)|\(row.description ?? "NULL")|\(row.latestVersion)"
        }.sorted()
    }

    static var todaysFields: [String] {
        BuiltInDeviceType.allCases.flatMap { type in
            type.manifest.fields.map { line(type.deviceType.id, $0.name, $0.type.rawValue, $0.unit, $0.description) }
        }.sorted()
    }

    static let forgotten = """
        A kind's field, unit, type or wording changed without a migration: add one (on both engines) that \
        appends the field (`ShippedDeviceTypes.appended`) or updates its row, and rewrite the catalogs \
        (HMON_RECORD_SCHEMA_CATALOGS=1 swift test --skip-build --filter FreshStoreCatalogTests).
        """

    @Test func aNewSQLiteStoreEndsWithTodaysManifests() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("hmon.sqlite")
        _ = try LocalStore(url: file, passwordHasher: .fastForTests)
        let (types, fields) = try DatabaseQueue(path: file.path).read { db in
            (try Row.fetchAll(db, sql: "SELECT id, name, unique_name, description, latest_version FROM device_types").map { row in
                "\(row["id"] as String)|\(row["name"] as String)|\(row["unique_name"] as String)|\(row["description"] as String? ?? "NULL")|\(row["latest_version"] as Int)"
            }.sorted(),
             try Row.fetchAll(db, sql: "SELECT dtid, name, type, unit, description FROM device_type_fields").map { row in
                Self.line(row["dtid"], row["name"], row["type"], row["unit"], row["description"])
            }.sorted())
        }
        #expect(types == Self.todaysTypes, "\(Self.forgotten)")
        #expect(fields == Self.todaysFields, "only in the store: \(Set(fields).subtracting(Self.todaysFields).sorted()); only in the manifests: \(Set(Self.todaysFields).subtracting(fields).sorted()). \(Self.forgotten)")
    }

    @Test(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: \(TestPostgres.unavailableReason ?? "")"))
    func aNewPostgreSQLStoreEndsWithTodaysManifests() async throws {
        let url = try await TestPostgres.newDatabase()
        _ = try await PostgresStore.open(try PostgresLocation(url), passwordHasher: .fastForTests, maximumConnections: 1)
        let types = try await TestPostgres.query(url, """
            SELECT id, name, unique_name, coalesce(description, 'NULL'), latest_version FROM device_types
            """).split(separator: "\n").map(String.init).sorted()
        let fields = try await TestPostgres.query(url, """
            SELECT dtid, name, type, coalesce(unit, 'NULL'), description FROM device_type_fields
            """).split(separator: "\n").map(String.init).sorted()
        #expect(types == Self.todaysTypes, "\(Self.forgotten)")
        #expect(fields == Self.todaysFields, "only in the store: \(Set(fields).subtracting(Self.todaysFields).sorted()); only in the manifests: \(Set(Self.todaysFields).subtracting(fields).sorted()). \(Self.forgotten)")
    }

    /// A kind added after the first schema is appended to each of its types by the version it names, so a store
    /// made before that version gains it.
    @Test func eachKindsVersionAppendsItsFieldToEachOfItsTypes() {
        for kind in ReadingKind.allCases {
            guard let version = kind.addedInSchema else { continue }
            let appended = ShippedDeviceTypes.appended(inSchema: version)
            for type in kind.deviceTypes {
                #expect(appended.contains(where: { $0.dtid == type.deviceType.id && $0.field.name == kind.field }),
                        "\(kind.field) on \(type): v\(version) (its addedInSchema) does not append it")
            }
        }
    }

    /// What a migration does may not depend on today's kinds, manifests or field names: the schema files name
    /// none of them, and the shipped rows' file imports nothing.
    @Test func theMigrationsReadNothingOfTodaysTypes() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        func code(_ path: String) throws -> [String] {
            try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        }
        let todays = ["BuiltInDeviceType", "ReadingKind", "Field.", "Manifest", "FieldSpec", "DeviceType(", "HRVFields", "SleepFields"]
        for path in ["SQLiteStorage/Schema.swift", "PostgresStorage/PostgresSchema.swift"] {
            let lines = try code(path)
            for name in todays {
                #expect(!lines.contains(where: { $0.contains(name) }), "\(path) reads \(name): a shipped migration's data must be a literal")
            }
            #expect(!lines.contains("import HealthModel"), "\(path) imports all of HealthModel")
        }
        let shipped = try code("HealthCore/Store/ShippedDeviceTypes.swift")
        #expect(!shipped.contains(where: { $0.hasPrefix("import ") }), "ShippedDeviceTypes.swift must import nothing")
    }
}
