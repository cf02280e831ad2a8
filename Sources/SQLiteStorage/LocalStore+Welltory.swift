import Foundation
import GRDB
import HealthCore
import HealthModel

/// Welltory callback links: `hmon hrv link` makes one per user, `hmon serve` stores what arrives on it
/// (both in `WelltoryLinkStore+Rows`, HealthCore); here are their rows.
extension LocalStore: WelltoryLinkRows {
    /// Revokes the user's callback link; returns whether there was one.
    @discardableResult
    public func revokeWelltoryLink(userID: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM welltory_links WHERE user_id = ?", arguments: [userID])
            return db.changesCount > 0
        }
    }

    public func firstDeviceID(ofType typeID: String, userID: String) async throws -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT id FROM devices WHERE uid = ? AND dtid = ? ORDER BY created_at, id LIMIT 1",
                                arguments: [userID, typeID])
        }
    }

    public func replaceWelltoryLink(hash: String, userID: String, deviceID: String, now: Date) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM welltory_links WHERE user_id = ?", arguments: [userID])
            try db.execute(sql: "INSERT INTO welltory_links (hash, user_id, device_id, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [hash, userID, deviceID, now.millisecondsSince1970])
        }
    }

    public func welltoryLink(hash: String) async throws -> WelltoryLinkRow? {
        try await read { db in
            try Row.fetchOne(db, sql: """
                SELECT l.user_id, l.device_id, d.name FROM welltory_links l JOIN devices d ON d.id = l.device_id WHERE l.hash = ?
                """, arguments: [hash]).map { WelltoryLinkRow(userID: $0[0], deviceID: $0[1], deviceName: $0[2]) }
        }
    }
}
