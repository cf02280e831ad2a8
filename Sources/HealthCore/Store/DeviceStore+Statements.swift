import Foundation
import HealthModel

/// Device types, their manifests, and users' devices, written once over an engine's statements. Moving a
/// device's readings onto another (`mergeDevice`) stays the engine's: it lists JSON keys its own way.
extension DeviceStore where Self: StatementEngine {
    /// Every device type, by name.
    public func deviceTypes() async throws -> [DeviceType] {
        try await fetch(DeviceStatements.deviceTypes).map(DeviceType.init(row:))
    }

    public func deviceType(id: String) async throws -> DeviceType? {
        try StoreRules.checkNoNUL(id, as: "dtid")
        return try await fetchOne(DeviceStatements.deviceType(id: id)).map(DeviceType.init(row:))
    }

    /// Looks a type up by its name ("Withings Device", ASCII letters in any case) or its unique name
    /// ("withings_device").
    public func deviceType(named name: String) async throws -> DeviceType? {
        try StoreRules.checkNoNUL(name, as: "name")
        return try await fetchOne("""
            SELECT * FROM device_types WHERE \(caselessColumn: "name") = \(caseless: name) OR unique_name = \(name) LIMIT 1
            """).map(DeviceType.init(row:))
    }

    /// The manifest of a type; `.unknownDeviceType` when there is no such type.
    public func manifest(ofType typeID: String) async throws -> Manifest {
        try await readingStatements { db in try db.manifest(ofType: typeID) }
    }

    /// A user's devices, oldest first.
    public func devices(userID: String) async throws -> [Device] {
        try await fetch(DeviceStatements.devices(userID: userID)).map(Device.init(row:))
    }

    /// Any user's device by id; nil when there is none.
    public func device(id: String) async throws -> Device? {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await fetchOne(DeviceStatements.device(id: id)).map(Device.init(row:))
    }

    /// The device when `userID` owns it; `.unknownDevice` or `.notYourDevice` otherwise.
    public func device(id: String, ownedBy userID: String) async throws -> Device {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try Device.owned(try await fetchOne(DeviceStatements.device(id: id)).map(Device.init(row:)), id: id, by: userID)
    }

    /// Adds a device for a user. Throws `.unknownDeviceType`, or `.invalidValue` for an empty name
    /// or a name the user already gave another device (names pick devices at the command line).
    public func addDevice(name: String, typeID: String, userID: String, at now: Date) async throws -> Device {
        let name = try StoreRules.deviceName(name)
        try StoreRules.checkNoNUL(typeID, as: "dtid")
        return try await writingStatements { db in
            guard try db.one(DeviceStatements.deviceType(id: typeID)) != nil else { throw HealthError.unknownDeviceType(typeID) }
            guard try db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
            if try db.exists(DeviceStatements.named(name, userID: userID, otherThan: nil)) { throw StoreRules.deviceNameTaken(name) }
            let device = Device(id: Secrets.newID(), uid: userID, dtid: typeID, name: name,
                                createdOn: Date(millisecondsSince1970: now.millisecondsSince1970))
            try db.insertDevice(device)
            return device
        }
    }

    public func renameDevice(id: String, userID: String, to newName: String) async throws -> Device {
        try StoreRules.checkNoNUL(id, as: "sdid")
        let name = try StoreRules.deviceName(newName)
        return try await writingStatements { db in
            var device = try db.device(id: id, ownedBy: userID)
            if try db.exists(DeviceStatements.named(name, userID: userID, otherThan: id)) { throw StoreRules.deviceNameTaken(name) }
            try db.run("UPDATE devices SET name = \(name) WHERE id = \(id)")
            device.name = name
            return device
        }
    }

    public func deleteDevice(id: String, userID: String, onlyIfEmpty: Bool) async throws -> DeviceDeletion {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await writingStatements { db in
            _ = try db.device(id: id, ownedBy: userID)
            let readings = Int(try db.one("SELECT count(*) AS n FROM messages WHERE sdid = \(binaryID: id)")?.integer("n") ?? 0)
            if onlyIfEmpty && readings > 0 { return DeviceDeletion(deleted: false, readings: readings) }
            // Its readings, Welltory link and Exist ownership go with it (by cascade, or PostgreSQL's trigger).
            try db.run("DELETE FROM devices WHERE id = \(id)")
            return DeviceDeletion(deleted: true, readings: readings)
        }
    }
}

/// The device statements engine code also runs inside its own transactions (a post, a screen).
public enum DeviceStatements {
    /// By name, in byte order (SQLite's `NOCASE` column keeps its own order there).
    public static let deviceTypes: StoreStatement = "SELECT * FROM device_types ORDER BY name\(.bytewiseOrder)"

    public static func deviceType(id: String) -> StoreStatement { "SELECT * FROM device_types WHERE id = \(id)" }

    public static func device(id: String) -> StoreStatement { "SELECT * FROM devices WHERE id = \(id)" }

    public static func devices(userID: String) -> StoreStatement {
        "SELECT * FROM devices WHERE uid = \(userID) ORDER BY created_at, \(.insertionOrder)"
    }

    public static func fields(ofType typeID: String) -> StoreStatement {
        "SELECT * FROM device_type_fields WHERE dtid = \(typeID) ORDER BY position"
    }

    /// Another of the user's devices with this name, ASCII letters in any case (names pick devices at the
    /// command line).
    public static func named(_ name: String, userID: String, otherThan id: String?) -> StoreStatement {
        if let id {
            return "SELECT 1 FROM devices WHERE uid = \(userID) AND id <> \(id) AND \(caselessColumn: "name") = \(caseless: name)"
        }
        return "SELECT 1 FROM devices WHERE uid = \(userID) AND \(caselessColumn: "name") = \(caseless: name)"
    }
}

extension StatementSession {
    public func deviceType(id: String) throws -> DeviceType? {
        try one(DeviceStatements.deviceType(id: id)).map(DeviceType.init(row:))
    }

    public func device(id: String, ownedBy userID: String) throws -> Device {
        try Device.owned(try one(DeviceStatements.device(id: id)).map(Device.init(row:)), id: id, by: userID)
    }

    public func manifest(ofType typeID: String) throws -> Manifest {
        guard try deviceType(id: typeID) != nil else { throw HealthError.unknownDeviceType(typeID) }
        return Manifest(fields: try rows(DeviceStatements.fields(ofType: typeID)).map(FieldSpec.init(row:)))
    }
}

extension Device {
    /// `device` when `userID` owns it; `.unknownDevice` or `.notYourDevice` otherwise.
    public static func owned(_ device: Device?, id: String, by userID: String) throws -> Device {
        guard let device else { throw HealthError.unknownDevice(id) }
        guard device.uid == userID else { throw HealthError.notYourDevice(id) }
        return device
    }

    public init(row: StoreRow) throws {
        self.init(id: try row.text("id"), uid: try row.text("uid"), dtid: try row.text("dtid"), name: try row.text("name"),
                  manifestVersion: Int(clamping: try row.integer("manifest_version")), createdOn: try row.date("created_at"),
                  connected: try row.flag("connected"))
    }
}

extension DeviceType {
    public init(row: StoreRow) throws {
        self.init(id: try row.text("id"), name: try row.text("name"), uniqueName: try row.text("unique_name"),
                  description: try row.optionalText("description"), latestVersion: Int(clamping: try row.integer("latest_version")))
    }
}

extension FieldSpec {
    public init(row: StoreRow) throws {
        self.init(name: try row.text("name"), type: FieldType(rawValue: try row.text("type")) ?? .string,
                  unit: try row.optionalText("unit"), description: try row.text("description"))
    }
}
