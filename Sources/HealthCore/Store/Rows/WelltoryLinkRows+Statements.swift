import Foundation
import HealthModel

/// Welltory callback links' rows, written once over an engine's statements.
extension WelltoryLinkRows where Self: StatementEngine {
    @discardableResult
    public func revokeWelltoryLink(userID: String) async throws -> Bool {
        try await writingStatements { db in try db.changes("DELETE FROM welltory_links WHERE user_id = \(userID) RETURNING 1") > 0 }
    }

    public func firstDeviceID(ofType typeID: String, userID: String) async throws -> String? {
        try await fetchOne("""
            SELECT id FROM devices WHERE uid = \(userID) AND dtid = \(typeID) ORDER BY created_at, id\(.bytewiseOrder) LIMIT 1
            """).map { try $0.text("id") }
    }

    public func replaceWelltoryLink(hash: String, userID: String, deviceID: String, now: Date) async throws {
        try await writingStatements { db in
            try db.run("DELETE FROM welltory_links WHERE user_id = \(userID)")
            try db.run("""
                INSERT INTO welltory_links (hash, user_id, device_id, created_at)
                VALUES (\(hash), \(userID), \(deviceID), \(now.millisecondsSince1970))
                """)
        }
    }

    public func welltoryLink(hash: String) async throws -> WelltoryLinkRow? {
        guard let row = try await fetchOne("""
            SELECT l.user_id, l.device_id, d.name FROM welltory_links l JOIN devices d ON d.id = l.device_id WHERE l.hash = \(hash)
            """) else { return nil }
        return WelltoryLinkRow(userID: try row.text("user_id"), deviceID: try row.text("device_id"), deviceName: try row.text("name"))
    }
}
