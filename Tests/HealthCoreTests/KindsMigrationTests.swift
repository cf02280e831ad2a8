import Foundation
import GRDB
@testable import HealthCore
@testable import HealthModel
import Testing
@testable import SQLiteStorage

/// A kind added after the first schema (`addedInSchema`) reaches stores made before it by its version's
/// migration: a store made before it gains each added kind's field on each of its built-in types, after the
/// fields that type had. One test for every such version since the kinds' own began (v21), so a new kind
/// needs no test of its own here.
@Suite struct KindsMigrationTests {
    static let versions = ReadingKind.schemaVersionsAddingKinds(after: 20)

    @Test func everyVersionThatAddsKindsHasItsMigration() {
        #expect(Self.versions.first == 21)
        // With the hand-written ones between them (v24–v31), every version has its migration.
        let numbered = Set(Schema.migrator.migrations.compactMap { name in name.dropFirst().split(separator: ":").first.flatMap { Int($0) } })
        #expect(Set(Self.versions).isSubset(of: numbered))
        #expect(numbered.isSuperset(of: Set(Self.versions.first!...Self.versions.last!)), "no version is skipped")
    }

    @Test(arguments: versions)
    func aStoreFromTheVersionBeforeGainsTheAddedFieldsAtTheEnd(_ version: Int) throws {
        let added = ReadingKind.added(inSchema: version)
        #expect(!added.isEmpty)
        let folder = try TemporaryFolder()
        let url = folder.file("v\(version - 1).sqlite")
        func fields(of type: BuiltInDeviceType) throws -> [String] {
            try DatabaseQueue(path: url.path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM device_type_fields WHERE dtid = ? ORDER BY position",
                                    arguments: [type.deviceType.id])
            }
        }
        // The version before, whichever kind it is (the kinds', or a hand-written one between them).
        let previous = try #require(Schema.migrator.migrations.first { $0.hasPrefix("v\(version - 1): ") })
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: previous)
            // A store of that version was written without the fields added since.
            try pool.write { db in
                for kind in ReadingKind.allCases where (kind.addedInSchema ?? 0) >= version {
                    try db.execute(sql: "DELETE FROM device_type_fields WHERE name = ?", arguments: [kind.field])
                }
            }
        }
        let types = Set(added.flatMap(\.deviceTypes))
        var before: [BuiltInDeviceType: [String]] = [:]
        for type in types { before[type] = try fields(of: type) }
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool)
        }
        for type in types {
            let gained = ReadingKind.allCases.filter { ($0.addedInSchema ?? 0) >= version && $0.deviceTypes.contains(type) }.map(\.field)
            #expect(try fields(of: type) == before[type]! + gained, "\(type) from v\(version - 1)")
            #expect(!before[type]!.contains(where: gained.contains))
        }
    }
}
