import Foundation
import GRDB
@testable import HealthCore
@testable import HealthModel
import Testing
@testable import SQLiteStorage

/// Schema 23 adds a ring's readiness score to the activity tracker, from the kinds' table: a store made
/// before gains the field after the ones it had.
@Suite struct ReadinessKindMigrationTests {
    @Test func theReadinessScoreIsSchema23sOnTheActivityTracker() {
        #expect(ReadingKind.added(inSchema: 23) == [.readiness])
        #expect(ReadingKind.readiness.deviceTypes == [.activityTracker] && ReadingKind.readiness.range == 0...100)
        #expect(ReadingKind.schemaVersionsAddingKinds(after: 22) == [23])
    }

    @Test func aVersion22StoresActivityTrackerGainsTheReadinessFieldAtItsEnd() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("v22.sqlite")
        let tracker = BuiltInDeviceType.activityTracker.deviceType.id
        func fields() throws -> [String] {
            try DatabaseQueue(path: url.path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM device_type_fields WHERE dtid = ? ORDER BY position", arguments: [tracker])
            }
        }
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v22: kinds of reading added to built-in types")
            // Versions up to 22 wrote the tracker as it was then: without the readiness score.
            try pool.write { db in try db.execute(sql: "DELETE FROM device_type_fields WHERE name = ?", arguments: [Field.readinessScore]) }
        }
        let before = try fields()
        #expect(!before.contains(Field.readinessScore))
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool)
        }
        #expect(try fields() == before + [Field.readinessScore])
    }
}
