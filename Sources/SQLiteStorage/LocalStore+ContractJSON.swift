import Foundation
import GRDB
import HealthCore
import HealthModel

extension LocalStore {
    /// `lastMessages(deviceID:userID:count:field:)` without decoding the data: the same ownership check
    /// (`.unknownDevice`, `.notYourDevice`), the same order (newest first) and the same field filter.
    public func lastMessagesJSON(deviceID: String, userID: String, count: Int, field: String?) async throws -> [StoredMessageJSON] {
        try StoreRules.checkCount(count)
        return try await read { db in
            _ = try SQLiteSession(db: db).device(id: deviceID, ownedBy: userID)
            guard let presence = try Self.presenceFilter(field) else { return [] }
            // A statement prepared once per connection: compiling it (parser, authorizer) cost as much as running it.
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT mid, sdid, sdtid, uid, ts, cts, mv, data FROM messages WHERE sdid = ? \(presence.sql) ORDER BY ts DESC, mid DESC LIMIT ?"),
                arguments: [StoredID(deviceID)] + presence.arguments + [count])
            return rows.map { row in
                StoredMessageJSON(mid: (row[0] as StoredID).id, sdid: (row[1] as StoredID).id, sdtid: (row[2] as StoredID).id,
                                  uid: (row[3] as StoredID).id, ts: row[4], cts: row[5], mv: row[6],
                                  dataJSON: row[7])
            }
        }
    }
}
