import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// `hmon import` of hmon's own export into a PostgreSQL store, with `LocalStore.importExport`'s promises:
/// one transaction (all or nothing; a dry run rolls it back), devices found by name and type or made,
/// each reading checked by `ReadingRules` as a new one, idempotent by reading id, and an id held by another
/// account refused rather than counted as already there.
extension PostgresStore {
    public func importExport(_ url: URL, userID: String, dryRun: Bool, now: Date) async throws -> ImportResult {
        let name = url.lastPathComponent
        let (format, rows) = try ExportReader.read(url)
        let readings = try ExportedReadings.group(rows, file: name)
        do {
            return try await bulkWrite(keep: !dryRun) { db in
                guard try await db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
                let tally = try await Self.insert(readings, userID: userID, file: name, now: now, in: db)
                return ImportResult(format: format, tally: tally, profile: ImportedProfile())
            }
        } catch let error as ImportError {
            throw error
        } catch let error as HealthError {
            throw error
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    private static func insert(_ readings: [ExportedReading], userID: String, file: String, now: Date,
                               in db: PGConnection) async throws -> ImportTally {
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
                let lowered = asciiLowered(reading.first.deviceType)
                guard let type = try await db.one("SELECT * FROM device_types WHERE \(unescaped: asciiLower("name")) = \(lowered) LIMIT 1")
                    .map(deviceType(row:)) else {
                    throw problem("no device type \"\(reading.first.deviceType)\" in this store: see `hmon device types`")
                }
                let device = try await findOrMakeDevice(named: reading.first.device, type: type, userID: userID, now: received, in: db)
                known = (device, try await manifest(ofType: type.id, in: db), type.name)
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
            let mid = reading.first.readingID
            let kind = ExportedReadings.kind(of: accepted)
            if try await Self.insertReading(mid: mid, device: known.device, userID: userID, ts: reading.first.ts, received: received,
                                            fields: accepted, unlessStored: true, in: db) {
                if let kind { tally.added[kind, default: 0] += 1 } else { tally.addedOther += 1 }
                tally.addedByDevice[known.device.name, default: 0] += 1
            } else {
                // Reading ids are unique in a store: the same id under another account is not "already there".
                let owner = try await db.one("SELECT uid FROM messages WHERE mid = \(mid)").map { try $0.value("uid", String.self) }
                if owner != userID {
                    throw problem("reading \(mid) belongs to another account in this store: "
                                  + "import an export into the account it came from, or into another store")
                }
                if let kind { tally.alreadyThere[kind, default: 0] += 1 } else { tally.alreadyThereOther += 1 }
            }
        }
        return tally
    }

    private static func findOrMakeDevice(named name: String, type: DeviceType, userID: String, now: Int64,
                                         in db: PGConnection) async throws -> Device {
        let qualified = "\(name.prefix(80)) (\(type.name))"
        let lower = asciiLower("name")
        for candidate in [name, qualified] {
            if let row = try await db.one("""
                SELECT * FROM devices WHERE uid = \(userID) AND dtid = \(type.id) AND \(unescaped: lower) = \(asciiLowered(candidate))
                ORDER BY created_at, seq LIMIT 1 FOR KEY SHARE
                """) {
                return try device(row: row)
            }
        }
        try TextRules.check(name, as: "the device name")
        let taken = try await db.exists("SELECT 1 FROM devices WHERE uid = \(userID) AND \(unescaped: lower) = \(asciiLowered(name))")
        let device = Device(id: Secrets.newID(), uid: userID, dtid: type.id, name: taken ? qualified : String(name.prefix(100)),
                            manifestVersion: type.latestVersion, createdOn: Date(millisecondsSince1970: now))
        try await db.run("""
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
            VALUES (\(device.id), \(userID), \(type.id), \(device.name), \(device.manifestVersion), \(now), \(device.connected))
            """)
        return device
    }
}
