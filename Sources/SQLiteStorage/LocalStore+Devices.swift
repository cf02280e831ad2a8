import Foundation
import GRDB
import HealthCore
import HealthModel

/// Devices on SQLite: moving one's readings onto another, and the one insert of a device row (the rest of
/// `DeviceStore` is written once: `DeviceStore+Statements`).
extension LocalStore {
    public func mergeDevice(id from: String, into: String, userID: String) async throws -> Int {
        try StoreRules.checkNoNUL(from, as: "sdid")
        try StoreRules.checkNoNUL(into, as: "sdid")
        return try await write { db in
            let source = try SQLiteSession(db: db).device(id: from, ownedBy: userID)
            let target = try SQLiteSession(db: db).device(id: into, ownedBy: userID)
            try DeviceMergeRules.checkTwoDevices(source, target)
            let carried = try String.fetchAll(db, sql: """
                SELECT DISTINCT field.key FROM messages INDEXED BY messages_by_device, json_each(messages.data) AS field
                WHERE messages.sdid = ?
                """, arguments: [StoredID(from)])
            try DeviceMergeRules.checkFields(Set(carried), from: source, into: target,
                                             manifest: try SQLiteSession(db: db).manifest(ofType: target.dtid))
            // The user, times and rowids stay, so the kept per-day sums (signed by them) stay true.
            try db.execute(sql: "UPDATE messages SET sdid = ?, sdtid = ? WHERE sdid = ?",
                           arguments: [StoredID(into), StoredID(target.dtid), StoredID(from)])
            return db.changesCount
        }
    }

    /// The one insert of a device row, with the `key` its readings refer to it by (`StoredID`).
    static func insertDevice(id: String, uid: String, dtid: String, name: String, manifestVersion: Int,
                             createdAt: Int64, connected: Bool = true, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO devices (id, key, uid, dtid, name, manifest_version, created_at, connected)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [id, StoredID(id), uid, dtid, name, manifestVersion, createdAt, connected])
    }
}
