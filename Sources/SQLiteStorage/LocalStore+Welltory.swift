import Foundation
import GRDB
import HealthCore
import HealthModel

/// Welltory callback links: `hmon hrv link` makes one per user, `hmon serve` stores what arrives on it.
extension LocalStore {

    /// Makes the user's callback secret (256 random bits, returned in clear once, stored hashed), replacing
    /// any earlier one, which stops working. Results go to the user's first HRV meter, made if there is none.
    public func createWelltoryLink(userID: String, now: Date = Date()) async throws -> String {
        let hrvType = BuiltInDeviceType.hrvMeter.deviceType.id
        let existing = try await read { db in
            try String.fetchOne(db, sql: "SELECT id FROM devices WHERE uid = ? AND dtid = ? ORDER BY created_at, id LIMIT 1",
                                arguments: [userID, hrvType])
        }
        let deviceID: String
        if let existing {
            deviceID = existing
        } else {
            deviceID = try await addDevice(name: StoreRules.welltoryDeviceName, typeID: hrvType, userID: userID, now: now).id
        }
        let secret = Secrets.newToken()
        try await write { db in
            try db.execute(sql: "DELETE FROM welltory_links WHERE user_id = ?", arguments: [userID])
            try db.execute(sql: "INSERT INTO welltory_links (hash, user_id, device_id, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [Secrets.sha256Hex(secret), userID, deviceID, now.millisecondsSince1970])
        }
        return secret
    }

    /// Revokes the user's callback link; returns whether there was one.
    @discardableResult
    public func revokeWelltoryLink(userID: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM welltory_links WHERE user_id = ?", arguments: [userID])
            return db.changesCount > 0
        }
    }

    /// Stores Welltory's results (already parsed by `WelltoryResult`) for the link whose secret this is.
    /// A result with a share token is stored under an id made from the user and the token, so Welltory
    /// (or a person) opening the same callback twice stores it once.
    public func storeWelltoryResult(secret: String, data: [String: FieldValue], now: Date = Date()) async throws -> WelltoryCallbackOutcome {
        let hash = Secrets.sha256Hex(secret)
        let link = try await read { db -> (userID: String, deviceID: String, deviceName: String)? in
            try Row.fetchOne(db, sql: """
                SELECT l.user_id, l.device_id, d.name FROM welltory_links l JOIN devices d ON d.id = l.device_id WHERE l.hash = ?
                """, arguments: [hash]).map { ($0[0], $0[1], $0[2]) }
        }
        guard let link else { return .unknownLink }
        let mid = data[Field.shareToken]?.textValue.map { "wt" + String(Secrets.sha256Hex(link.userID + "\n" + $0).prefix(30)) }
        let message = NewMessage(sdid: link.deviceID, ts: now.millisecondsSince1970, data: data)
        let added = try await postBatch([message], mids: mid.map { [$0] }, userID: link.userID, now: now)
        return added == 1 || mid == nil ? .saved(deviceName: link.deviceName) : .alreadySaved(deviceName: link.deviceName)
    }
}
