import Foundation
import HealthModel

/// The device an import's readings of one source and kind land on, as both engines find or make it.
public struct ImportedDevice: Sendable {
    public var id: String
    public var dtid: String
    public var manifestVersion: Int
    /// As stored, for the summary's count per device.
    public var name: String
    /// The device's slot in the import's counts.
    public var slot = -1
}

extension StatementSession {
    /// A scale's readings from every source land on the person's one scale (their oldest, Withings or
    /// generic, else a new generic "Scale"); other kinds on a device named after the source (`names`). A
    /// device found is kept from deletion until the import ends (PostgreSQL's `FOR KEY SHARE`, the lock a
    /// foreign key's check would take for each reading).
    public func importDevice(named names: ImportDeviceName, type: BuiltInDeviceType, userID: String, createdAt: Int64) throws
        -> ImportedDevice {
        if type == .withings {
            let withings = BuiltInDeviceType.withings.deviceType.id, generic = BuiltInDeviceType.scale.deviceType.id
            if let row = try one("""
                SELECT id, dtid, manifest_version, name FROM devices WHERE uid = \(userID) AND dtid IN (\(withings), \(generic))
                ORDER BY created_at, \(.insertionOrder) LIMIT 1\(.keptFromDeletion)
                """) {
                return try ImportedDevice(row: row)
            }
            return try makeImportDevice(named: .scale, type: .scale, userID: userID, createdAt: createdAt)
        }
        let typeID = type.deviceType.id
        for candidate in [names.name, names.qualified] {
            if let row = try one("""
                SELECT id, dtid, manifest_version, name FROM devices
                WHERE uid = \(userID) AND dtid = \(typeID) AND \(caselessColumn: "name") = \(caseless: candidate)
                ORDER BY created_at LIMIT 1\(.keptFromDeletion)
                """) {
                return try ImportedDevice(row: row)
            }
        }
        return try makeImportDevice(named: names, type: type, userID: userID, createdAt: createdAt)
    }

    private func makeImportDevice(named names: ImportDeviceName, type: BuiltInDeviceType, userID: String, createdAt: Int64) throws
        -> ImportedDevice {
        let taken = try exists(DeviceStatements.named(names.name, userID: userID, otherThan: nil))
        let device = Device(id: Secrets.newID(), uid: userID, dtid: type.deviceType.id, name: taken ? names.qualified : names.name,
                            manifestVersion: type.deviceType.latestVersion, createdOn: Date(millisecondsSince1970: createdAt))
        try insertDevice(device)
        return ImportedDevice(id: device.id, dtid: device.dtid, manifestVersion: device.manifestVersion, name: device.name)
    }

    /// Fills the profile's empty fields from an export, as `ProfileFill` says, and notes which in `tally`.
    public func fillProfile(from imported: ImportedProfile, userID: String, now: Date, tally: inout ImportTally) throws {
        guard !imported.isEmpty,
              let row = try one("SELECT birth_date, sex, height_cm FROM profiles WHERE user_id = \(userID)") else { return }
        let fill = ProfileFill(birthDate: imported.birthDate, sex: imported.sex, heightCm: imported.heightCm,
                               empty: (try row.optionalText("birth_date") == nil, try row.optionalText("sex") == nil,
                                       try row.optionalReal("height_cm") == nil),
                               today: Day(now, in: Calendar.current))
        guard !fill.filled.isEmpty else { return }
        try run("""
            UPDATE profiles SET birth_date = coalesce(birth_date, \(fill.birthDate?.description)), sex = coalesce(sex, \(fill.sex?.rawValue)),
                height_cm = coalesce(height_cm, \(fill.heightCm))
            WHERE user_id = \(userID)
            """)
        tally.profileFilled.append(contentsOf: fill.filled)
    }
}

extension ImportedDevice {
    init(row: StoreRow) throws {
        self.init(id: try row.text("id"), dtid: try row.text("dtid"), manifestVersion: Int(clamping: try row.integer("manifest_version")),
                  name: try row.text("name"))
    }
}

extension StatementSession {
    /// An hmon export's device: the user's device of `type` named `name` (or "Name (Type)"), kept from
    /// deletion until the import ends, else a new one.
    public func exportedDevice(named name: String, type: DeviceType, userID: String, createdAt: Int64) throws -> Device {
        let qualified = "\(name.prefix(80)) (\(type.name))"
        for candidate in [name, qualified] {
            if let row = try one("""
                SELECT * FROM devices WHERE uid = \(userID) AND dtid = \(type.id) AND \(caselessColumn: "name") = \(caseless: candidate)
                ORDER BY created_at, \(.insertionOrder) LIMIT 1\(.keptFromDeletion)
                """) {
                return try Device(row: row)
            }
        }
        try TextRules.check(name, as: "the device name")
        let taken = try exists(DeviceStatements.named(name, userID: userID, otherThan: nil))
        let device = Device(id: Secrets.newID(), uid: userID, dtid: type.id, name: taken ? qualified : String(name.prefix(100)),
                            manifestVersion: type.latestVersion, createdOn: Date(millisecondsSince1970: createdAt))
        try insertDevice(device)
        return device
    }
}
