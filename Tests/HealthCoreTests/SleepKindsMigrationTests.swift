import Foundation
import GRDB
@testable import HealthCore
@testable import HealthModel
import Testing
@testable import SQLiteStorage

/// Schema 22 adds a night's sleep (time asleep, in bed, and the stages) to the activity tracker, from the
/// kinds' table: a store made before gains the fields after the ones it had.
@Suite struct SleepKindsMigrationTests {
    static let fields = [ReadingKind.sleep, .timeInBed, .deepSleep, .remSleep, .coreSleep, .sleepAwake].map(\.field)

    @Test func theSleepKindsAreSchema22sOnTheActivityTracker() {
        #expect(ReadingKind.added(inSchema: 22).map(\.field) == Self.fields)
        #expect(ReadingKind.added(inSchema: 22).allSatisfy { $0.deviceTypes == [.activityTracker] && $0.unit == "min" })
    }

    @Test func aVersion21StoresActivityTrackerGainsTheSleepFieldsAtItsEnd() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("v21.sqlite")
        let tracker = BuiltInDeviceType.activityTracker.deviceType.id
        func fields() throws -> [String] {
            try DatabaseQueue(path: url.path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM device_type_fields WHERE dtid = ? ORDER BY position", arguments: [tracker])
            }
        }
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v21: kinds of reading added to built-in types")
            // Versions up to 21 wrote the tracker as it was then: without the sleep fields.
            try pool.write { db in
                for field in Self.fields { try db.execute(sql: "DELETE FROM device_type_fields WHERE name = ?", arguments: [field]) }
            }
        }
        let before = try fields()
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool)
        }
        #expect(try fields() == before + Self.fields)
    }
}
