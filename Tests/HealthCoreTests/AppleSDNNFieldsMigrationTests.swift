import Foundation
import GRDB
@testable import HealthCore
@testable import HealthModel
import Testing
@testable import SQLiteStorage

/// SQLite's schema version 19 (issue 28, item 2): an HRV Meter made before it gains Apple's SDNN and the
/// reason its beats were refused, after the fields it had, so an import can store them; a store made
/// since has them from the start and does not get them twice.
@Suite struct AppleSDNNFieldsMigrationTests {
    static let meter = BuiltInDeviceType.hrvMeter.deviceType.id

    static func fields(_ url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM device_type_fields WHERE dtid = ? ORDER BY position", arguments: [meter])
        }
    }

    @Test func aVersion18StoresHRVMeterGainsTheTwoFieldsAtItsEnd() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("v18.sqlite")
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v18: an undo journal per session")
            // Version 4 wrote the HRV Meter as it was then: without the two fields.
            try pool.write { db in
                try db.execute(sql: "DELETE FROM device_type_fields WHERE dtid = ? AND name IN (?, ?)",
                               arguments: [Self.meter, Field.appleSDNN, Field.beatsRefused])
            }
        }
        let before = try Self.fields(url)
        #expect(!before.contains(Field.appleSDNN) && before.contains(Field.rmssd))

        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool)
        }
        #expect(try Self.fields(url) == before + [Field.appleSDNN, Field.beatsRefused])
    }

    @Test func aNewStoreHasTheFieldsOnce() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("new.sqlite")
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool)
        }
        let fields = try Self.fields(url)
        #expect(fields == BuiltInDeviceType.hrvMeter.manifest.fields.map(\.name))
        #expect(fields.filter { $0 == Field.appleSDNN }.count == 1)
    }
}
