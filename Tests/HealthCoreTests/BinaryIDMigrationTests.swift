import Foundation
import GRDB
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import PostgresStorage
@testable import SQLiteStorage

/// Schema version 20 on both engines: a reading's four ids move from hex text to `BinaryID` bytes (issue 30,
/// item 1). A store made before keeps every reading, as seen from outside, under the same ids: an id hmon
/// made, a device type's, and ids another system gave (not hex), which keep their text.
@Suite struct BinaryIDMigrationTests {
    static let scaleType = BuiltInDeviceType.withings.deviceType.id
    static let user = "0123456789abcdef0123456789abcdef"
    static let scale = "a0000000000000000000000000000001"
    /// A device and a reading whose ids another system made.
    static let watch = "watch-1"
    static let readings: [(mid: String, sdid: String, ts: Int64, data: String)] = [
        ("10000000000000000000000000000001", scale, 86_400_000, #"{"weight":70.5}"#),
        ("10000000000000000000000000000002", scale, 172_800_000, #"{"weight":71}"#),
        ("F3A1E2D4-0000-4000-8000-00000000000A", watch, 90_000_000, #"{"steps":1200}"#),
        ("1abc0000000000000000000000000003", watch, 91_000_000, #"{"steps":800}"#),
    ]

    /// What the store's own API shows of the user's readings: id, device, type, user, time and data.
    static func seen(_ store: any HealthStore) async throws -> [String] {
        try await store.readings(ReadingsQuery(order: .asc), userID: user).map { reading in
            "\(reading.mid) \(reading.sdid) \(reading.sdtid) \(reading.uid) \(reading.ts) \(reading.data)"
        }
    }

    static var expected: [String] {
        readings.sorted { $0.ts < $1.ts }.map { reading in
            let data = try! JSONDecoder().decode([String: FieldValue].self, from: Data(reading.data.utf8))
            return "\(reading.mid) \(reading.sdid) \(reading.sdid == scale ? scaleType : trackerType) \(user) \(reading.ts) \(data)"
        }
    }

    static let trackerType = BuiltInDeviceType.activityTracker.deviceType.id

    /// What every engine must still do after the move.
    static func checkAfterTheMove(_ store: any HealthStore) async throws {
        #expect(try await seen(store) == expected)
        for reading in readings {
            #expect(try await store.reading(id: reading.mid, userID: user).ts == reading.ts)
        }
        #expect(try await store.readingIDs(startingWith: "1abc", userID: user, limit: 10) == ["1abc0000000000000000000000000003"])
        #expect(try await store.readingIDs(startingWith: "1000", userID: user, limit: 10)
                == ["10000000000000000000000000000001", "10000000000000000000000000000002"])
        #expect(try await store.lastMessages(deviceID: watch, userID: user, count: 5, field: nil).map(\.mid)
                == ["1abc0000000000000000000000000003", "F3A1E2D4-0000-4000-8000-00000000000A"])
        // A new reading on an old device, then the device deleted: its readings go with it.
        let new = try await store.post(NewMessage(sdid: scale, ts: 259_200_000, data: [Field.weight: .number(71.5)]),
                                       userID: user, mid: nil, now: Date())
        #expect(try await store.reading(id: new, userID: user).sdid == scale)
        _ = try await store.deleteDevice(id: scale, userID: user, onlyIfEmpty: false)
        #expect(try await store.readings(ReadingsQuery(), userID: user).map(\.sdid) == [watch, watch])
    }

    @Test func aVersion19SQLiteStoreKeepsEveryReadingItsIdsAndItsRowids() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("v19.sqlite")
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v19: Apple's SDNN and refused beat lists on HRV meters")
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO users (id, name, name_key, name_skeleton, full_name, email, password_hash, created_at, modified_at)
                    VALUES ('\(Self.user)', 'alice', 'alice', 'alice', '', '', 'x', 0, 0);
                    INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
                    VALUES ('\(Self.scale)', '\(Self.user)', '\(Self.scaleType)', 'Scale', 1, 0, 1),
                           ('\(Self.watch)', '\(Self.user)', '\(Self.trackerType)', 'Watch', 1, 0, 1);
                    """)
                for reading in Self.readings {
                    try db.execute(sql: "INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
                                   arguments: [reading.mid, reading.sdid, reading.sdid == Self.scale ? Self.scaleType : Self.trackerType,
                                               Self.user, reading.ts, reading.ts, reading.data])
                }
            }
        }
        let rowids = try await DatabaseQueue(path: url.path).read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM messages ORDER BY ts") }

        let store = try LocalStore(url: url, access: .readWrite, passwordHasher: .fastForTests)
        let stored = try await store.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid, length(mid) + length(sdid) + length(sdtid) + length(uid) AS bytes FROM messages ORDER BY ts")
                .map { (rowid: $0["rowid"] as Int64, bytes: $0["bytes"] as Int) }
        }
        #expect(stored.map(\.rowid) == rowids, "the kept per-day sums are signed with rowids")
        // 16 + 16 + 17 + 16 for ids hmon made; a foreign id keeps its text behind 0xFF.
        #expect(stored.map(\.bytes) == [65, 1 + 36 + 1 + 7 + 17 + 16, 1 + 7 + 17 + 16 + 16, 65])
        try await Self.checkAfterTheMove(store)
    }

    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
    func aVersion19PostgreSQLDatabaseKeepsEveryReadingAndItsIds() async throws {
        let url = try await TestPostgres.newDatabase()
        for migration in PostgresSchema.migrations where migration.version <= 19 {
            _ = try await TestPostgres.query(url, migration.sql.joined(separator: ";\n") + ";\nUPDATE hmon_meta SET version = \(migration.version)")
        }
        var sql = """
            INSERT INTO users (id, name, password_hash, created_at, modified_at) VALUES ('\(Self.user)', 'alice', 'scrypt$x', 0, 0);
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at)
            VALUES ('\(Self.scale)', '\(Self.user)', '\(Self.scaleType)', 'Scale', 1, 0),
                   ('\(Self.watch)', '\(Self.user)', '\(Self.trackerType)', 'Watch', 1, 0);
            """
        for reading in Self.readings {
            let type = reading.sdid == Self.scale ? Self.scaleType : Self.trackerType
            sql += """
                INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, data)
                VALUES ('\(reading.mid)', '\(reading.sdid)', '\(type)', '\(Self.user)', \(reading.ts), 0, '\(reading.data)');
                """
        }
        _ = try await TestPostgres.query(url, sql)
        let store = try await PostgresStore.open(try PostgresLocation(url), access: .readWrite, passwordHasher: .fastForTests,
                                                 maximumConnections: 2)
        #expect(try await TestPostgres.query(url, "SELECT version FROM hmon_meta") == "\(PostgresSchema.latestVersion)", "migrated through 20 to the latest")
        #expect(try await TestPostgres.query(url, """
            SELECT string_agg((octet_length(mid) + octet_length(sdid) + octet_length(sdtid) + octet_length(uid))::text, ' ' ORDER BY ts)
            FROM messages
            """) == "65 78 57 65")
        #expect(try await TestPostgres.query(url, "SELECT count(*) FROM devices WHERE key IS NULL") == "0")
        try await Self.checkAfterTheMove(store)
        // A device and an account made after the move get their key from the trigger.
        let device = try await store.addDevice(name: "Band", typeID: Self.trackerType, userID: Self.user, now: Date())
        #expect(try await TestPostgres.query(url, "SELECT encode(key, 'hex') FROM devices WHERE id = '\(device.id)'") == device.id)
    }
}
