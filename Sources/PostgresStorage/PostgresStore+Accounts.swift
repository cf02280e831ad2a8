import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Adding an account on PostgreSQL; the rest of `AccountRows` is written once over statements
/// (`AccountRows+Statements`).
extension PostgresStore: AccountRows {
    public func insertUser(_ user: User, passwordHash: String) async throws {
        try await write { db in
            try UserNames.checkFree(user.name, clashingWith: try await db.rows(AccountStatements.nameClashing(with: user.name)).first?.text("name"))
            try await db.run("""
                INSERT INTO users (id, name, name_key, name_skeleton, full_name, email, password_hash, created_at, modified_at)
                VALUES (\(user.id), \(user.name), \(UserNames.key(user.name)), \(UserNames.skeleton(user.name)), \(user.fullName),
                        \(user.email), \(passwordHash), \(user.createdOn.millisecondsSince1970), \(user.modifiedOn.millisecondsSince1970))
                """)
            try await db.run("INSERT INTO profiles (user_id) VALUES (\(user.id))")
        }
    }
}

/// Devices on PostgreSQL: moving one's readings onto another, and the device reads engine code makes inside
/// its own transactions (the rest of `DeviceStore` is written once: `DeviceStore+Statements`).
extension PostgresStore {
    public func mergeDevice(id from: String, into: String, userID: String) async throws -> Int {
        try StoreRules.checkNoNUL(from, as: "sdid")
        try StoreRules.checkNoNUL(into, as: "sdid")
        return try await write { db in
            let source = try await db.device(id: from, ownedBy: userID)
            let target = try await db.device(id: into, ownedBy: userID)
            try DeviceMergeRules.checkTwoDevices(source, target)
            var carried: Set<String> = []
            let fields = try await db.all("SELECT DISTINCT jsonb_object_keys(data::jsonb) AS field FROM messages WHERE sdid = \(ByteaID(from))")
            for row in fields {
                carried.insert(try row.value("field", String.self))
            }
            try DeviceMergeRules.checkFields(carried, from: source, into: target,
                                             manifest: try await db.manifest(ofType: target.dtid))
            // The user, times and sequence numbers stay, so the kept per-day sums (signed by them) stay true.
            return try await db.count("""
                UPDATE messages SET sdid = \(ByteaID(into)), sdtid = \(ByteaID(target.dtid)) WHERE sdid = \(ByteaID(from)) RETURNING 1
                """)
        }
    }

    /// `device(id:ownedBy:in:)` for a write that adds or changes its readings: the row stays locked
    /// `FOR KEY SHARE` to the end of the transaction, so the device (or its owner) cannot be deleted
    /// under readings being written. It takes the lock a foreign key's check would take, once per
    /// device instead of once per reading (schema version 15).
    static func lockedDevice(id: String, ownedBy userID: String, in db: PGConnection) async throws -> Device {
        guard let device = try await db.one("SELECT * FROM devices WHERE id = \(id) FOR KEY SHARE").map(PostgresStore.storeRow).map(Device.init(row:)) else {
            throw HealthError.unknownDevice(id)
        }
        guard device.uid == userID else { throw HealthError.notYourDevice(id) }
        return device
    }

    /// The manifests of the types `typeIDs` (known types), in one query.
    static func manifests(ofTypes typeIDs: [String], in db: PGConnection) async throws -> [String: Manifest] {
        guard !typeIDs.isEmpty else { return [:] }
        var fields: [String: [FieldSpec]] = Dictionary(uniqueKeysWithValues: typeIDs.map { ($0, []) })
        for row in try await db.all("SELECT * FROM device_type_fields WHERE dtid = ANY(\(typeIDs)) ORDER BY dtid, position") {
            fields[try row.value("dtid", String.self), default: []].append(try FieldSpec(row: try storeRow(row)))
        }
        return fields.mapValues { Manifest(fields: $0) }
    }
}

extension PGConnection {
    func deviceType(id: String) async throws -> DeviceType? {
        try await rows(DeviceStatements.deviceType(id: id)).first.map(DeviceType.init(row:))
    }

    func deviceTypes() async throws -> [DeviceType] {
        try await rows(DeviceStatements.deviceTypes).map(DeviceType.init(row:))
    }

    func devices(userID: String) async throws -> [Device] {
        try await rows(DeviceStatements.devices(userID: userID)).map(Device.init(row:))
    }

    func device(id: String, ownedBy userID: String) async throws -> Device {
        try Device.owned(try await rows(DeviceStatements.device(id: id)).first.map(Device.init(row:)), id: id, by: userID)
    }

    func manifest(ofType typeID: String) async throws -> Manifest {
        guard try await deviceType(id: typeID) != nil else { throw HealthError.unknownDeviceType(typeID) }
        return Manifest(fields: try await rows(DeviceStatements.fields(ofType: typeID)).map(FieldSpec.init(row:)))
    }
}
