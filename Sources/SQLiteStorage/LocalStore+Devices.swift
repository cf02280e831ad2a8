import Foundation
import GRDB
import HealthCore
import HealthModel

/// Device types, their manifests, and users' devices.
extension LocalStore {
    /// Every device type, by name.
    public func deviceTypes() async throws -> [DeviceType] {
        try await read { db in try Self.deviceTypes(in: db) }
    }

    public func deviceType(id: String) async throws -> DeviceType? {
        try StoreRules.checkNoNUL(id, as: "dtid")
        return try await read { db in try Self.deviceType(id: id, in: db) }
    }

    /// Looks a type up by its name ("Withings Device", case-insensitive) or its unique name ("withings_device").
    public func deviceType(named name: String) async throws -> DeviceType? {
        try StoreRules.checkNoNUL(name, as: "name")
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM device_types WHERE name = ? OR unique_name = ? LIMIT 1",
                             arguments: [name, name]).map(DeviceType.init(row:))
        }
    }

    /// The manifest of a type; `.unknownDeviceType` when there is no such type.
    public func manifest(ofType typeID: String) async throws -> Manifest {
        try await read { db in try Self.manifest(ofType: typeID, in: db) }
    }

    /// A user's devices, oldest first.
    public func devices(userID: String) async throws -> [Device] {
        try await read { db in try Self.devices(userID: userID, in: db) }
    }

    /// Any user's device by id; nil when there is none.
    public func device(id: String) async throws -> Device? {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await read { db in try Self.device(id: id, in: db) }
    }

    /// The device when `userID` owns it; `.unknownDevice` or `.notYourDevice` otherwise.
    public func device(id: String, ownedBy userID: String) async throws -> Device {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await read { db in try Self.device(id: id, ownedBy: userID, in: db) }
    }

    /// Adds a device for a user. Throws `.unknownDeviceType`, or `.invalidValue` for an empty name
    /// or a name the user already gave another device (names pick devices at the command line).
    public func addDevice(name: String, typeID: String, userID: String, at now: Date) async throws -> Device {
        let name = try StoreRules.deviceName(name)
        try StoreRules.checkNoNUL(typeID, as: "dtid")
        return try await write { db in
            guard try Self.deviceType(id: typeID, in: db) != nil else { throw HealthError.unknownDeviceType(typeID) }
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [userID]) == true else {
                throw HealthError.unknownUser(userID)
            }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE uid = ? AND name = ? COLLATE NOCASE)",
                                 arguments: [userID, name]) == true {
                throw StoreRules.deviceNameTaken(name)
            }
            let device = Device(id: Secrets.newID(), uid: userID, dtid: typeID, name: name,
                                createdOn: Date(millisecondsSince1970: now.millisecondsSince1970))
            try Self.insertDevice(id: device.id, uid: device.uid, dtid: device.dtid, name: device.name,
                                  manifestVersion: device.manifestVersion, createdAt: now.millisecondsSince1970,
                                  connected: device.connected, in: db)
            return device
        }
    }

    public func renameDevice(id: String, userID: String, to newName: String) async throws -> Device {
        try StoreRules.checkNoNUL(id, as: "sdid")
        let name = try StoreRules.deviceName(newName)
        return try await write { db in
            var device = try Self.device(id: id, ownedBy: userID, in: db)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE uid = ? AND name = ? COLLATE NOCASE AND id <> ?)",
                                 arguments: [userID, name, id]) == true {
                throw StoreRules.deviceNameTaken(name)
            }
            try db.execute(sql: "UPDATE devices SET name = ? WHERE id = ?", arguments: [name, id])
            device.name = name
            return device
        }
    }

    public func deleteDevice(id: String, userID: String, onlyIfEmpty: Bool) async throws -> DeviceDeletion {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await write { db in
            _ = try Self.device(id: id, ownedBy: userID, in: db)
            let readings = try Int.fetchOne(db, sql: "SELECT count(*) FROM messages INDEXED BY messages_by_device WHERE sdid = ?",
                                            arguments: [StoredID(id)]) ?? 0
            if onlyIfEmpty && readings > 0 { return DeviceDeletion(deleted: false, readings: readings) }
            // Its readings, Welltory link and Exist ownership go with it (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM devices WHERE id = ?", arguments: [id])
            return DeviceDeletion(deleted: true, readings: readings)
        }
    }

    public func mergeDevice(id from: String, into: String, userID: String) async throws -> Int {
        try StoreRules.checkNoNUL(from, as: "sdid")
        try StoreRules.checkNoNUL(into, as: "sdid")
        return try await write { db in
            let source = try Self.device(id: from, ownedBy: userID, in: db)
            let target = try Self.device(id: into, ownedBy: userID, in: db)
            try DeviceMergeRules.checkTwoDevices(source, target)
            let carried = try String.fetchAll(db, sql: """
                SELECT DISTINCT field.key FROM messages INDEXED BY messages_by_device, json_each(messages.data) AS field
                WHERE messages.sdid = ?
                """, arguments: [StoredID(from)])
            try DeviceMergeRules.checkFields(Set(carried), from: source, into: target,
                                             manifest: try Self.manifest(ofType: target.dtid, in: db))
            // The user, times and rowids stay, so the kept per-day sums (signed by them) stay true.
            try db.execute(sql: "UPDATE messages SET sdid = ?, sdtid = ? WHERE sdid = ?",
                           arguments: [StoredID(into), StoredID(target.dtid), StoredID(from)])
            return db.changesCount
        }
    }

    // MARK: Inside a transaction

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

    static func deviceTypes(in db: Database) throws -> [DeviceType] {
        try Row.fetchAll(db, sql: "SELECT * FROM device_types ORDER BY name").map(DeviceType.init(row:))
    }

    static func devices(userID: String, in db: Database) throws -> [Device] {
        try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE uid = ? ORDER BY created_at, rowid",
                         arguments: [userID]).map(Device.init(row:))
    }

    static func deviceType(id: String, in db: Database) throws -> DeviceType? {
        // Cached, as the two below: every post of a reading asks all three (`post`), and compiling them anew
        // (with GRDB's authorizer) was a tenth of a server's CPU under posts (`Benchmarks/serve-posts.sh`).
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM device_types WHERE id = ?"), arguments: [id]).map(DeviceType.init(row:))
    }

    static func manifest(ofType typeID: String, in db: Database) throws -> Manifest {
        guard try deviceType(id: typeID, in: db) != nil else { throw HealthError.unknownDeviceType(typeID) }
        let fields = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM device_type_fields WHERE dtid = ? ORDER BY position"),
                                      arguments: [typeID]).map { row in
            FieldSpec(name: row["name"], type: FieldType(rawValue: row["type"]) ?? .string, unit: row["unit"],
                      description: row["description"])
        }
        return Manifest(fields: fields)
    }

    static func device(id: String, in db: Database) throws -> Device? {
        // Cached: the server checks a device's owner on every request for its readings.
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM devices WHERE id = ?"), arguments: [id]).map(Device.init(row:))
    }

    static func device(id: String, ownedBy userID: String, in db: Database) throws -> Device {
        guard let device = try device(id: id, in: db) else { throw HealthError.unknownDevice(id) }
        guard device.uid == userID else { throw HealthError.notYourDevice(id) }
        return device
    }
}

extension DeviceType {
    init(row: Row) {
        self.init(id: row["id"], name: row["name"], uniqueName: row["unique_name"], description: row["description"],
                  latestVersion: row["latest_version"])
    }
}

extension Device {
    init(row: Row) {
        self.init(id: row["id"], uid: row["uid"], dtid: row["dtid"], name: row["name"],
                  manifestVersion: row["manifest_version"],
                  createdOn: Date(millisecondsSince1970: row["created_at"]), connected: row["connected"])
    }
}
