import Foundation
import GRDB
import HealthCore
import HealthModel

/// Exist's API in the store: attribute ownership, writes that become readings, personal tokens, and
/// what `hmon exist push` has sent.
extension LocalStore {
    // MARK: Ownership

    public func existOwners(userID: String) async throws -> [InsightAttribute: ExistOwner] {
        try await read { db in
            var owners: [InsightAttribute: ExistOwner] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM exist_owners WHERE uid = ?", arguments: [userID]) {
                guard let attribute = InsightAttribute(rawValue: row["attribute"]) else { continue }
                owners[attribute] = ExistOwner(clientID: row["client_id"], service: row["service"], deviceID: row["device_id"])
            }
            return owners
        }
    }

    /// Makes `clientID`'s service the owner of `attribute` (taking it from another service, as Exist does
    /// when the user lets a new app write it), with a device of the attribute's type named after the
    /// service: the one it wrote that type to before (other attributes, or this one before it was taken
    /// away), or a new one.
    @discardableResult
    public func acquireExist(_ attribute: InsightAttribute, userID: String, clientID: String, service: String,
                             at now: Date) async throws -> ExistOwner {
        guard let target = attribute.writeTarget else { throw HealthError.invalidValue(attribute.whyNotWritable) }
        let type = target.deviceType.deviceType
        return try await write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM exist_owners WHERE uid = ? AND attribute = ? AND client_id = ?",
                                          arguments: [userID, attribute.name, clientID]) {
                return ExistOwner(clientID: clientID, service: row["service"], deviceID: row["device_id"])
            }
            let deviceID: String
            if let known = try String.fetchOne(db, sql: "SELECT device_id FROM exist_service_devices WHERE uid = ? AND client_id = ? AND dtid = ?",
                                               arguments: [userID, clientID, type.id]) {
                deviceID = known
            } else {
                deviceID = try Self.newServiceDevice(service: service, type: type, userID: userID, now: now, in: db)
                try db.execute(sql: "INSERT INTO exist_service_devices (uid, client_id, dtid, device_id) VALUES (?, ?, ?, ?)",
                               arguments: [userID, clientID, type.id, deviceID])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO exist_owners (uid, attribute, client_id, service, device_id) VALUES (?, ?, ?, ?, ?)",
                           arguments: [userID, attribute.name, clientID, service, deviceID])
            return ExistOwner(clientID: clientID, service: service, deviceID: deviceID)
        }
    }

    /// Gives up `clientID`'s ownership; false when it did not own the attribute. The readings stay.
    public func releaseExist(_ attribute: InsightAttribute, userID: String, clientID: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM exist_owners WHERE uid = ? AND attribute = ? AND client_id = ?",
                           arguments: [userID, attribute.name, clientID])
            return db.changesCount > 0
        }
    }

    /// "Exist sync (Withings Device)", or with a number when the user already has a device of that name.
    private static func newServiceDevice(service: String, type: DeviceType, userID: String, now: Date, in db: Database) throws -> String {
        let base = "\(service.prefix(60)) (\(type.name))"
        var name = base
        var n = 2
        while try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE uid = ? AND name = ? COLLATE NOCASE)",
                                arguments: [userID, name]) == true {
            name = "\(base) \(n)"
            n += 1
        }
        let id = Secrets.newID()
        try Self.insertDevice(id: id, uid: userID, dtid: type.id, name: name, manifestVersion: type.latestVersion,
                              createdAt: now.millisecondsSince1970, in: db)
        return id
    }

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

    /// The day of the user's first reading (ms), for the count of an attribute's values.
    public func firstReadingTime(userID: String) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT min(ts) FROM messages WHERE uid = ?", arguments: [StoredID(userID)])
        }
    }

    // MARK: What was pushed

    /// Per attribute name and day (`YYYY-MM-DD`), the value last sent to `server` for the user.
    public func existPushed(server: String, userID: String) async throws -> [String: [String: Double]] {
        try await read { db in
            var sent: [String: [String: Double]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT attribute, day, value FROM exist_pushed WHERE server = ? AND uid = ?",
                                           arguments: [server, userID])
            while let row = try rows.next() { sent[row[0], default: [:]][row[1]] = row[2] }
            return sent
        }
    }

    /// Notes values as sent (after the server accepted them).
    public func rememberExistPushed(server: String, userID: String, values: [(attribute: String, day: String, value: Double)]) async throws {
        guard !values.isEmpty else { return }
        try await write { db in
            for v in values {
                try db.execute(sql: "INSERT OR REPLACE INTO exist_pushed (server, uid, attribute, day, value) VALUES (?, ?, ?, ?, ?)",
                               arguments: [server, userID, v.attribute, v.day, v.value])
            }
        }
    }
}
