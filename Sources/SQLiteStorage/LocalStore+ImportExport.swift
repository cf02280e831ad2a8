import Foundation
import GRDB
import HealthCore
import HealthModel

/// `hmon import` of hmon's own export: every reading back with its id, time, device and fields.
extension LocalStore {
    /// Reads an `hmon export` file (CSV or JSON) and adds its readings to the user's devices in one
    /// transaction; all or nothing, like `importFile`.
    ///
    /// - Rows sharing a `reading_id` are one reading; they must agree on time and device.
    /// - Devices are found by name and type, else made (named "Name (Type)" when the name is taken by a
    ///   device of another type).
    /// - Each reading is checked by `ReadingRules` against its device type's manifest, as a new one is;
    ///   a CSV value is a number or text as the manifest's field says.
    /// - Idempotent: a reading whose id is stored already is left as it is and counted "already there".
    public func importExport(_ url: URL, userID: String, dryRun: Bool = false, now: Date = Date()) throws -> ImportResult {
        guard dryRun, readOnlyOpening != nil else {
            try refuseIfOpenedToRead()
            return try runImportExport(url, userID: userID, dryRun: dryRun, now: now)
        }
        return try onDryRunConnection { try $0.runImportExport(url, userID: userID, dryRun: true, now: now) }
    }

    private func runImportExport(_ url: URL, userID: String, dryRun: Bool, now: Date) throws -> ImportResult {
        let name = url.lastPathComponent
        let (format, rows) = try ExportReader.read(url)
        let readings = try ExportedReadings.group(rows, file: name)
        do {
            return try writer.writeWithoutTransaction { db in
                var tally = ImportTally()
                try db.inTransaction(.immediate) {
                    guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [userID]) == true else {
                        throw HealthError.unknownUser(userID)
                    }
                    tally = try Self.insert(readings, userID: userID, file: name, now: now, in: db)
                    return dryRun ? .rollback : .commit
                }
                return ImportResult(format: format, tally: tally, profile: ImportedProfile())
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw mapped(error)
        }
    }

    private static func insert(_ readings: [ExportedReading], userID: String, file: String, now: Date, in db: Database) throws -> ImportTally {
        var tally = ImportTally()
        var devices: [String: (device: Device, manifest: Manifest, typeName: String)] = [:]
        let received = now.millisecondsSince1970
        for reading in readings {
            func problem(_ text: String) -> ImportError { ImportError(file: file, line: reading.line, problem: text) }
            let key = reading.first.deviceType + "\u{0}" + reading.first.device
            let known: (device: Device, manifest: Manifest, typeName: String)
            if let cached = devices[key] {
                known = cached
            } else {
                guard let type = try DeviceType.fetch(named: reading.first.deviceType, in: db) else {
                    throw problem("no device type \"\(reading.first.deviceType)\" in this store: see `hmon device types`")
                }
                let device = try findOrMakeDevice(named: reading.first.device, type: type, userID: userID, now: received, in: db)
                known = (device, try manifest(ofType: type.id, in: db), type.name)
                devices[key] = known
            }
            var data: [String: FieldValue] = [:]
            for (name, value) in reading.fields {
                data[name] = try ExportedReadings.typed(value, field: known.manifest.field(name), name: name, problem: problem)
            }
            let accepted: [String: FieldValue]
            do {
                try StoreRules.checkTimestamp(reading.first.ts, now: received)
                accepted = try ReadingRules.accepted(data, manifest: known.manifest, typeName: known.typeName)
            } catch let error as HealthError {
                throw problem("reading \(reading.first.readingID): \(error.message)")
            }
            let record = try MessageRecord(mid: reading.first.readingID, sdid: known.device.id, sdtid: known.device.dtid, uid: userID,
                                       ts: reading.first.ts, cts: received, mv: known.device.manifestVersion, fields: accepted)
            let kind = ExportedReadings.kind(of: accepted)
            if try record.insertUnlessStored(db) {
                if let kind { tally.added[kind, default: 0] += 1 } else { tally.addedOther += 1 }
                tally.addedByDevice[known.device.name, default: 0] += 1
            } else {
                // Reading ids are unique in a store: the same id under another account is not "already there".
                let owner = try String.fetchOne(db, sql: "SELECT uid FROM messages WHERE mid = ?", arguments: [reading.first.readingID])
                if owner != userID {
                    throw problem("reading \(reading.first.readingID) belongs to another account in this store: "
                                  + "import an export into the account it came from, or into another store")
                }
                if let kind { tally.alreadyThere[kind, default: 0] += 1 } else { tally.alreadyThereOther += 1 }
            }
        }
        return tally
    }

    private static func findOrMakeDevice(named name: String, type: DeviceType, userID: String, now: Int64, in db: Database) throws -> Device {
        let qualified = "\(name.prefix(80)) (\(type.name))"
        for candidate in [name, qualified] {
            let sql = "SELECT * FROM devices WHERE uid = ? AND dtid = ? AND name = ? COLLATE NOCASE ORDER BY created_at LIMIT 1"
            if let row = try Row.fetchOne(db, sql: sql, arguments: [userID, type.id, candidate]) {
                return Device(row: row)
            }
        }
        try TextRules.check(name, as: "the device name")
        let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE uid = ? AND name = ? COLLATE NOCASE)",
                                      arguments: [userID, name]) == true
        let device = Device(id: Secrets.newID(), uid: userID, dtid: type.id, name: taken ? qualified : String(name.prefix(100)),
                            manifestVersion: type.latestVersion, createdOn: Date(millisecondsSince1970: now))
        try db.execute(
            sql: "INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [device.id, userID, type.id, device.name, device.manifestVersion, now, device.connected])
        return device
    }
}

extension DeviceType {
    static func fetch(named name: String, in db: Database) throws -> DeviceType? {
        try Row.fetchOne(db, sql: "SELECT * FROM device_types WHERE name = ? COLLATE NOCASE ORDER BY rowid LIMIT 1", arguments: [name])
            .map(DeviceType.init(row:))
    }
}
