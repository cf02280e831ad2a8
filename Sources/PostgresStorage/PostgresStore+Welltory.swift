import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Welltory callback links' rows on PostgreSQL (what links make and store: `WelltoryLinkStore+Rows`, HealthCore).
extension PostgresStore: WelltoryLinkRows {
    @discardableResult
    public func revokeWelltoryLink(userID: String) async throws -> Bool {
        try await write { db in try await db.count("DELETE FROM welltory_links WHERE user_id = \(userID) RETURNING 1") > 0 }
    }

    /// Ids compared byte by byte (`COLLATE "C"`), as SQLite compares them.
    public func firstDeviceID(ofType typeID: String, userID: String) async throws -> String? {
        try await read { db in
            try await db.one("""
                SELECT id FROM devices WHERE uid = \(userID) AND dtid = \(typeID) ORDER BY created_at, id COLLATE "C" LIMIT 1
                """)?.value("id", String.self)
        }
    }

    public func replaceWelltoryLink(hash: String, userID: String, deviceID: String, now: Date) async throws {
        try await write { db in
            try await db.run("DELETE FROM welltory_links WHERE user_id = \(userID)")
            try await db.run("""
                INSERT INTO welltory_links (hash, user_id, device_id, created_at)
                VALUES (\(hash), \(userID), \(deviceID), \(now.millisecondsSince1970))
                """)
        }
    }

    public func welltoryLink(hash: String) async throws -> WelltoryLinkRow? {
        try await read { db in
            guard let row = try await db.one("""
                SELECT l.user_id, l.device_id, d.name FROM welltory_links l JOIN devices d ON d.id = l.device_id WHERE l.hash = \(hash)
                """) else { return nil }
            return WelltoryLinkRow(userID: try row.value("user_id"), deviceID: try row.value("device_id"), deviceName: try row.value("name"))
        }
    }
}
