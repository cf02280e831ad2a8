import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Accounts and profiles on PostgreSQL: the reads, and the rows `AccountStore+Rows` (HealthCore) checks
/// and writes for both engines.
extension PostgresStore: AccountRows {
    public func user(id: String) async throws -> User? {
        try await read { db in try await Self.user(id: id, in: db) }
    }

    public func users() async throws -> [User] {
        try await read { db in try await db.all("SELECT * FROM users ORDER BY created_at, name").map(Self.user(row:)) }
    }

    public func hasUsers() async throws -> Bool {
        try await read { db in try await db.exists("SELECT 1 FROM users LIMIT 1") }
    }

    public func profile(userID: String) async throws -> Profile {
        try await read { db in try await Self.profile(userID: userID, in: db) }
    }

    // MARK: Account rows (checked and written by `AccountStore+Rows`)

    public func nameClashing(with name: String) async throws -> String? {
        try await read { db in try await Self.nameClashing(with: name, in: db) }
    }

    public func insertUser(_ user: User, passwordHash: String) async throws {
        try await write { db in
            try UserNames.checkFree(user.name, clashingWith: try await Self.nameClashing(with: user.name, in: db))
            try await db.run("""
                INSERT INTO users (id, name, name_key, name_skeleton, full_name, email, password_hash, created_at, modified_at)
                VALUES (\(user.id), \(user.name), \(UserNames.key(user.name)), \(UserNames.skeleton(user.name)), \(user.fullName),
                        \(user.email), \(passwordHash), \(user.createdOn.millisecondsSince1970), \(user.modifiedOn.millisecondsSince1970))
                """)
            try await db.run("INSERT INTO profiles (user_id) VALUES (\(user.id))")
        }
    }

    public func userWithPasswordHash(named name: String) async throws -> (user: User, passwordHash: String)? {
        try await read { db -> (user: User, passwordHash: String)? in
            guard let row = try await Self.userRow(named: name, in: db) else { return nil }
            return (try Self.user(row: row), try row.value("password_hash", String.self))
        }
    }

    public func replacePasswordHash(_ hash: String, userID: String, now: Date) async throws -> Bool {
        try await write { db in
            let changed = try await db.count(
                "UPDATE users SET password_hash = \(hash), modified_at = \(now.millisecondsSince1970) WHERE id = \(userID) RETURNING 1")
            try await db.run("DELETE FROM tokens WHERE user_id = \(userID)")
            return changed > 0
        }
    }

    public func deleteUserRow(id: String) async throws -> Bool {
        try await write { db in return try await db.count("DELETE FROM users WHERE id = \(id) RETURNING 1") > 0 }
    }

    public func replaceProfile(_ profile: Profile, userID: String, now: Date) async throws -> Bool {
        try await write { db in
            let changed = try await db.count("""
                UPDATE profiles SET birth_date = \(profile.birthDate?.description), sex = \(profile.sex?.rawValue),
                    height_cm = \(profile.heightCm), lean_mass_kg = \(profile.leanMassKg), mass_unit = \(profile.massUnit.rawValue),
                    energy_unit = \(profile.energyUnit.rawValue), bmr_formula = \(profile.bmrFormula.rawValue), goal_kg = \(profile.goalKg),
                    sleep_need_minutes = \(profile.sleepNeedMinutes)
                WHERE user_id = \(userID) RETURNING 1
                """)
            try await db.run("UPDATE users SET modified_at = \(now.millisecondsSince1970) WHERE id = \(userID)")
            return changed > 0
        }
    }
}

/// Device types and devices: `LocalStore+Devices` on PostgreSQL, with the same rules and errors.
extension PostgresStore {
    // MARK: Device types and devices

    public func deviceTypes() async throws -> [DeviceType] {
        try await read { db in try await Self.deviceTypes(in: db) }
    }

    public func deviceType(id: String) async throws -> DeviceType? {
        try StoreRules.checkNoNUL(id, as: "dtid")
        return try await read { db in try await Self.deviceType(id: id, in: db) }
    }

    public func deviceType(named name: String) async throws -> DeviceType? {
        try StoreRules.checkNoNUL(name, as: "name")
        return try await read { db in
            try await db.one("""
                SELECT * FROM device_types WHERE lower(name) = lower(\(name)) OR unique_name = \(name) LIMIT 1
                """).map(Self.deviceType(row:))
        }
    }

    public func manifest(ofType typeID: String) async throws -> Manifest {
        try await read { db in try await Self.manifest(ofType: typeID, in: db) }
    }

    public func devices(userID: String) async throws -> [Device] {
        try await read { db in try await Self.devices(userID: userID, in: db) }
    }

    public func device(id: String) async throws -> Device? {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await read { db in try await Self.device(id: id, in: db) }
    }

    public func device(id: String, ownedBy userID: String) async throws -> Device {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await read { db in try await Self.device(id: id, ownedBy: userID, in: db) }
    }

    public func renameDevice(id: String, userID: String, to newName: String) async throws -> Device {
        try StoreRules.checkNoNUL(id, as: "sdid")
        let name = try StoreRules.deviceName(newName)
        return try await write { db in
            var device = try await Self.device(id: id, ownedBy: userID, in: db)
            // SQLite's NOCASE folds ASCII letters only; so does this.
            if try await db.exists("SELECT 1 FROM devices WHERE uid = \(userID) AND id <> \(id) AND \(unescaped: Self.asciiLower("name")) = \(Self.asciiLowered(name))") {
                throw StoreRules.deviceNameTaken(name)
            }
            try await db.run("UPDATE devices SET name = \(name) WHERE id = \(id)")
            device.name = name
            return device
        }
    }

    public func deleteDevice(id: String, userID: String, onlyIfEmpty: Bool) async throws -> DeviceDeletion {
        try StoreRules.checkNoNUL(id, as: "sdid")
        return try await write { db in
            _ = try await Self.device(id: id, ownedBy: userID, in: db)
            let readings = try await db.one("SELECT count(*)::bigint AS n FROM messages WHERE sdid = \(ByteaID(id))")?.value("n", Int64.self) ?? 0
            if onlyIfEmpty && readings > 0 { return DeviceDeletion(deleted: false, readings: Int(readings)) }
            // Its readings go by trigger (`readingsGoWith`), its Welltory link and Exist ownership by cascade.
            try await db.run("DELETE FROM devices WHERE id = \(id)")
            return DeviceDeletion(deleted: true, readings: Int(readings))
        }
    }

    public func mergeDevice(id from: String, into: String, userID: String) async throws -> Int {
        try StoreRules.checkNoNUL(from, as: "sdid")
        try StoreRules.checkNoNUL(into, as: "sdid")
        return try await write { db in
            let source = try await Self.device(id: from, ownedBy: userID, in: db)
            let target = try await Self.device(id: into, ownedBy: userID, in: db)
            try DeviceMergeRules.checkTwoDevices(source, target)
            var carried: Set<String> = []
            let fields = try await db.all("SELECT DISTINCT jsonb_object_keys(data::jsonb) AS field FROM messages WHERE sdid = \(ByteaID(from))")
            for row in fields {
                carried.insert(try row.value("field", String.self))
            }
            try DeviceMergeRules.checkFields(carried, from: source, into: target,
                                             manifest: try await Self.manifest(ofType: target.dtid, in: db))
            // The user, times and sequence numbers stay, so the kept per-day sums (signed by them) stay true.
            return try await db.count("""
                UPDATE messages SET sdid = \(ByteaID(into)), sdtid = \(ByteaID(target.dtid)) WHERE sdid = \(ByteaID(from)) RETURNING 1
                """)
        }
    }

    public func addDevice(name: String, typeID: String, userID: String, at now: Date) async throws -> Device {
        let name = try StoreRules.deviceName(name)
        try StoreRules.checkNoNUL(typeID, as: "dtid")
        return try await write { db in
            guard try await Self.deviceType(id: typeID, in: db) != nil else { throw HealthError.unknownDeviceType(typeID) }
            guard try await db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
            // SQLite's NOCASE folds ASCII letters only; so does this.
            if try await db.exists("SELECT 1 FROM devices WHERE uid = \(userID) AND \(unescaped: Self.asciiLower("name")) = \(Self.asciiLowered(name))") {
                throw StoreRules.deviceNameTaken(name)
            }
            let device = Device(id: Secrets.newID(), uid: userID, dtid: typeID, name: name,
                                createdOn: Date(millisecondsSince1970: now.millisecondsSince1970))
            try await db.run("""
                INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
                VALUES (\(device.id), \(device.uid), \(device.dtid), \(device.name), \(device.manifestVersion),
                        \(now.millisecondsSince1970), \(device.connected))
                """)
            return device
        }
    }

    // MARK: Inside a transaction

    static func asciiLower(_ column: String) -> String {
        "translate(\(column), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }

    static func asciiLowered(_ text: String) -> String {
        String(text.unicodeScalars.map { ("A"..."Z").contains($0) ? Character(Unicode.Scalar($0.value + 32)!) : Character($0) })
    }

    static func userRow(named name: String, in db: PGConnection) async throws -> PostgresRandomAccessRow? {
        try await db.one("SELECT * FROM users WHERE name_key = \(UserNames.key(name)) ORDER BY name = \(name) DESC, created_at LIMIT 1")
    }

    /// See `AccountRows.nameClashing`.
    static func nameClashing(with name: String, in db: PGConnection) async throws -> String? {
        let key = UserNames.key(name)
        return try await db.one("""
            SELECT name FROM users WHERE name_key = \(key) OR name_skeleton = \(UserNames.skeleton(name))
            ORDER BY name_key = \(key) DESC LIMIT 1
            """)?.value("name", String.self)
    }

    static func user(id: String, in db: PGConnection) async throws -> User? {
        try await db.one("SELECT * FROM users WHERE id = \(id)").map(user(row:))
    }

    static func profile(userID: String, in db: PGConnection) async throws -> Profile {
        guard let row = try await db.one("SELECT * FROM profiles WHERE user_id = \(userID)") else {
            throw HealthError.unknownUser(userID)
        }
        return Profile(birthDate: try row.value("birth_date", String?.self).flatMap(Day.init(iso:)),
                       sex: try row.value("sex", String?.self).flatMap(Sex.init(rawValue:)),
                       heightCm: try row.value("height_cm"),
                       leanMassKg: try row.value("lean_mass_kg"),
                       massUnit: MassUnit(rawValue: try row.value("mass_unit")) ?? .kg,
                       energyUnit: EnergyUnit(rawValue: try row.value("energy_unit")) ?? .kcal,
                       bmrFormula: BMRFormula(rawValue: try row.value("bmr_formula")) ?? .mifflinStJeor,
                       goalKg: try row.value("goal_kg"),
                       sleepNeedMinutes: try row.value("sleep_need_minutes"))
    }

    static func deviceTypes(in db: PGConnection) async throws -> [DeviceType] {
        // SQLite sorts by name in byte order; "C" collation does the same here.
        try await db.all("SELECT * FROM device_types ORDER BY name COLLATE \"C\"").map(deviceType(row:))
    }

    static func devices(userID: String, in db: PGConnection) async throws -> [Device] {
        try await db.all("SELECT * FROM devices WHERE uid = \(userID) ORDER BY created_at, seq").map(device(row:))
    }

    static func deviceType(id: String, in db: PGConnection) async throws -> DeviceType? {
        try await db.one("SELECT * FROM device_types WHERE id = \(id)").map(deviceType(row:))
    }

    static func manifest(ofType typeID: String, in db: PGConnection) async throws -> Manifest {
        guard try await deviceType(id: typeID, in: db) != nil else { throw HealthError.unknownDeviceType(typeID) }
        let fields = try await db.all("SELECT * FROM device_type_fields WHERE dtid = \(typeID) ORDER BY position").map { row in
            FieldSpec(name: try row.value("name"), type: FieldType(rawValue: try row.value("type")) ?? .string,
                      unit: try row.value("unit"), description: try row.value("description"))
        }
        return Manifest(fields: fields)
    }

    /// The manifests of the types `typeIDs` (known types), in one query.
    static func manifests(ofTypes typeIDs: [String], in db: PGConnection) async throws -> [String: Manifest] {
        guard !typeIDs.isEmpty else { return [:] }
        var fields: [String: [FieldSpec]] = Dictionary(uniqueKeysWithValues: typeIDs.map { ($0, []) })
        for row in try await db.all("SELECT * FROM device_type_fields WHERE dtid = ANY(\(typeIDs)) ORDER BY dtid, position") {
            fields[try row.value("dtid", String.self), default: []].append(
                FieldSpec(name: try row.value("name"), type: FieldType(rawValue: try row.value("type")) ?? .string,
                          unit: try row.value("unit"), description: try row.value("description")))
        }
        return fields.mapValues { Manifest(fields: $0) }
    }

    static func device(id: String, in db: PGConnection) async throws -> Device? {
        try await db.one("SELECT * FROM devices WHERE id = \(id)").map(device(row:))
    }

    static func device(id: String, ownedBy userID: String, in db: PGConnection) async throws -> Device {
        guard let device = try await device(id: id, in: db) else { throw HealthError.unknownDevice(id) }
        guard device.uid == userID else { throw HealthError.notYourDevice(id) }
        return device
    }

    /// `device(id:ownedBy:in:)` for a write that adds or changes its readings: the row stays locked
    /// `FOR KEY SHARE` to the end of the transaction, so the device (or its owner) cannot be deleted
    /// under readings being written. It takes the lock a foreign key's check would take, once per
    /// device instead of once per reading (schema version 15).
    static func lockedDevice(id: String, ownedBy userID: String, in db: PGConnection) async throws -> Device {
        guard let device = try await db.one("SELECT * FROM devices WHERE id = \(id) FOR KEY SHARE").map(device(row:)) else {
            throw HealthError.unknownDevice(id)
        }
        guard device.uid == userID else { throw HealthError.notYourDevice(id) }
        return device
    }

    // MARK: Rows

    static func user(row: PostgresRandomAccessRow) throws -> User {
        User(id: try row.value("id"), name: try row.value("name"), fullName: try row.value("full_name"), email: try row.value("email"),
             createdOn: Date(millisecondsSince1970: try row.value("created_at")),
             modifiedOn: Date(millisecondsSince1970: try row.value("modified_at")))
    }

    static func deviceType(row: PostgresRandomAccessRow) throws -> DeviceType {
        DeviceType(id: try row.value("id"), name: try row.value("name"), uniqueName: try row.value("unique_name"),
                   description: try row.value("description"), latestVersion: try row.value("latest_version"))
    }

    static func device(row: PostgresRandomAccessRow) throws -> Device {
        Device(id: try row.value("id"), uid: try row.value("uid"), dtid: try row.value("dtid"), name: try row.value("name"),
               manifestVersion: try row.value("manifest_version"),
               createdOn: Date(millisecondsSince1970: try row.value("created_at")), connected: try row.value("connected"))
    }
}
