import Foundation
import GRDB
import HealthCore
import HealthModel

/// Exist's writes that become readings (the rest of Exist's API is written once: `ExistStore+Statements`).
extension LocalStore {
    // MARK: Writing a day

    /// Sets (or with `increment`, adds to) the day's value of `field` on the owner's device: the device's
    /// readings of that field in the day are replaced by one reading at `ts` holding the new total, checked
    /// by the reading rules like any other. Returns the new total. Nothing is written when a check fails.
    public func writeExistDay(userID: String, deviceID: String, field: String, day: (start: Int64, stop: Int64), ts: Int64,
                              value: Double, increment: Bool, at now: Date) async throws -> Double {
        try StoreRules.checkTimestamp(ts, now: now.millisecondsSince1970)
        return try await write { db in
            let target = try Self.readingTarget(deviceID: deviceID, ownedBy: userID, in: db)
            let device = target.device
            let path = "$.\(field)"
            let current = try Double.fetchOne(db, sql: """
                SELECT total(json_extract(data, ?)) FROM messages
                WHERE sdid = ? AND ts >= ? AND ts < ? AND json_type(data, ?) IN ('integer', 'real')
                """, arguments: [path, StoredID(deviceID), day.start, day.stop, path]) ?? 0
            let total = increment ? current + value : value
            let data = try target.accepted([field: .number(total)])
            try db.execute(sql: "DELETE FROM messages WHERE sdid = ? AND ts >= ? AND ts < ? AND json_type(data, ?) IS NOT NULL",
                           arguments: [StoredID(deviceID), day.start, day.stop, path])
            try MessageRecord(mid: Secrets.newID(), sdid: device.id, sdtid: device.dtid, uid: userID, ts: ts,
                              cts: now.millisecondsSince1970, mv: device.manifestVersion, fields: data).insert(db)
            // The kept per-day sums trust that readings are only added: a replaced one could leave the same
            // count and rowid sum, so the sums of the days around it are dropped.
            try db.execute(sql: "DELETE FROM day_totals_cache WHERE uid = ? AND start <= ? AND stop > ?",
                           arguments: [userID, ts, ts])
            return data[field]?.number ?? total
        }
    }
}
