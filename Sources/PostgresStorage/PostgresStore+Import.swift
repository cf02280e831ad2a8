import Foundation
import PostgresNIO
import HealthCore
import HealthFormats
import HealthModel

/// Bringing an export into a PostgreSQL store, with `LocalStore.importFile`'s promises: all or nothing
/// (one transaction), idempotent (the same `mid`s, `ON CONFLICT DO NOTHING`), devices named after the
/// readings' sources, the profile's empty fields filled. The readings go in one multi-row insert per
/// few batches of the reading thread (`unnest` of one array per column), not one round trip each.
extension PostgresStore {
    public func importFile(_ url: URL, userID: String, dryRun: Bool, timeZone: TimeZone, options: ImportOptions, at now: Date,
                           progress: (@Sendable (ImportProgress) -> Void)?) async throws -> ImportResult {
        do {
            return try await bulkWrite(keep: !dryRun) { db in
                guard try await db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
                let writer = PostgresImportWriter(db: db, userID: userID, received: now.millisecondsSince1970, via: options.path)
                // Each row's JSON, id and skips are made on the reading thread, as for SQLite (`ImportRow`).
                let pipe = BatchPipe<ImportRow>(capacity: 16)
                BatchPipe.startReading(url, timeZone: timeZone, options: options, progress: progress, into: pipe,
                                       preparing: ImportRowPreparer(userID: userID, received: now.millisecondsSince1970))
                // Several of the reader's batches per insert: each statement is a round trip to the server,
                // and on a busy machine the wait for it costs more than its rows.
                try await Self.drain(pipe, into: writer, userID: userID, received: now.millisecondsSince1970, db: db)
                var imported = try pipe.result()
                writer.finish(into: &imported.tally)
                try await Self.fillProfile(from: imported.profile, userID: userID, now: now, tally: &imported.tally, db: db)
                return imported
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw Self.mapped(error, location: location)
        }
    }


    /// Fills the profile's empty fields from the export, as `ProfileFill` says.
    private static func fillProfile(from imported: ImportedProfile, userID: String, now: Date,
                                    tally: inout ImportTally, db: PGConnection) async throws {
        guard !imported.isEmpty,
              let row = try await db.one("SELECT birth_date, sex, height_cm FROM profiles WHERE user_id = \(userID)") else { return }
        let fill = ProfileFill(birthDate: imported.birthDate, sex: imported.sex, heightCm: imported.heightCm,
                               empty: (try row.value("birth_date", String?.self) == nil, try row.value("sex", String?.self) == nil,
                                       try row.value("height_cm", Double?.self) == nil),
                               today: Day(now, in: Calendar.current))
        guard !fill.filled.isEmpty else { return }
        try await db.run("""
            UPDATE profiles SET birth_date = coalesce(birth_date, \(fill.birthDate?.description)), sex = coalesce(sex, \(fill.sex?.rawValue)),
                height_cm = coalesce(height_cm, \(fill.heightCm))
            WHERE user_id = \(userID)
            """)
        tally.profileFilled.append(contentsOf: fill.filled)
    }
}

/// `ImportWriter` for PostgreSQL: the same device naming, skips and counts, one insert per batch. A device
/// found for the readings is locked `FOR KEY SHARE` (see `PostgresStore.lockedDevice`).
final class PostgresImportWriter: PipelinedInsertWriter {
    private let db: PGConnection
    private let userID: String
    private let received: Int64
    private var devices: [ImportDeviceKey: KnownDevice] = [:]
    private var counts = ImportCounts()

    private struct KnownDevice {
        var id: String
        var dtid: String
        var manifestVersion: Int
        /// As stored, for the summary's count per device.
        var name: String
        /// The device's slot in `counts`.
        var slot = -1
    }

    private let via: ReadingPath?

    init(db: PGConnection, userID: String, received: Int64, via: ReadingPath? = nil) {
        self.db = db
        self.userID = userID
        self.received = received
        self.via = via
    }

    /// The kind and device of each reading in an insert, by id.
    struct Batch {
        var kindOfMid: [String: Int] = [:]
        var deviceOfMid: [String: Int] = [:]
    }

    func prepare(_ rows: [ImportRow]) async throws -> (batch: Batch, columns: ImportedMessageColumns) {
        var columns = ImportedMessageColumns()
        columns.via = via?.rawValue
        var batch = Batch()
        for row in rows {
            let reading = row.reading
            let json: String, mid: String, readingNumbers: ReadingNumbers
            switch row.outcome {
            case .skipped(let reason):
                counts.skip(reason, kind: reading.kind)
                continue
            case .row(let encoded, let id, let prepared):
                (json, mid, readingNumbers) = (encoded, id, prepared)
            }
            let device = try await device(for: reading.source, type: reading.kind.builtInType)
            if batch.kindOfMid[mid] != nil {
                // The same reading twice in one batch: the second is "already there", as on SQLite.
                counts.count(kindAt: reading.kind.index, deviceSlot: device.slot, added: false)
                continue
            }
            batch.kindOfMid[mid] = reading.kind.index
            batch.deviceOfMid[mid] = device.slot
            columns.append(mid: mid, sdid: device.id, sdtid: device.dtid, manifestVersion: device.manifestVersion,
                           ts: reading.timestamp, json: json, numbers: readingNumbers, spanTotalMark: reading.spanTotalMark)
        }
        return (batch, columns)
    }

    func account(_ batch: Batch, added fresh: Set<String>) async throws {
        for (mid, kind) in batch.kindOfMid {
            guard let slot = batch.deviceOfMid[mid] else { continue }
            counts.count(kindAt: kind, deviceSlot: slot, added: fresh.contains(mid))
        }
    }

    func finish(into tally: inout ImportTally) {
        counts.finish(into: &tally)
    }

    /// As on SQLite (`ImportWriter`): a scale's readings from every source land on the person's one scale,
    /// their oldest (Withings or generic), or a new generic "Scale"; other kinds on a device named after the source.
    private func device(for source: String, type: BuiltInDeviceType) async throws -> KnownDevice {
        let key = ImportDeviceKey(source: source, type: type)
        if let known = devices[key] { return known }
        var device = type == .withings ? try await theScale() : try await findOrCreateDevice(source: source, type: type)
        device.slot = counts.deviceSlot(named: device.name)
        devices[key] = device
        return device
    }

    private func theScale() async throws -> KnownDevice {
        let withings = BuiltInDeviceType.withings.deviceType.id, generic = BuiltInDeviceType.scale.deviceType.id
        if let row = try await db.one("""
            SELECT id, dtid, manifest_version, name FROM devices WHERE uid = \(userID) AND dtid IN (\(withings), \(generic))
            ORDER BY created_at, seq LIMIT 1 FOR KEY SHARE
            """) {
            return KnownDevice(id: try row.value("id"), dtid: try row.value("dtid"), manifestVersion: try row.value("manifest_version"),
                               name: try row.value("name"))
        }
        let lower = PostgresStore.asciiLower("name")
        let names = ImportDeviceName.scale
        let nameTaken = try await db.exists("""
            SELECT 1 FROM devices WHERE uid = \(userID) AND \(unescaped: lower) = \(PostgresStore.asciiLowered(names.name))
            """)
        let type = BuiltInDeviceType.scale
        let device = KnownDevice(id: Secrets.newID(), dtid: generic, manifestVersion: type.deviceType.latestVersion,
                                 name: nameTaken ? names.qualified : names.name)
        try await db.run("""
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
            VALUES (\(device.id), \(userID), \(generic), \(device.name), \(device.manifestVersion), \(received), true)
            """)
        return device
    }

    private func findOrCreateDevice(source: String, type: BuiltInDeviceType) async throws -> KnownDevice {
        let typeID = type.deviceType.id
        let names = ImportDeviceName(source: source, type: type)
        counts.noteCleaned(names)
        let lower = PostgresStore.asciiLower("name")
        for candidate in [names.name, names.qualified] {
            if let row = try await db.one("""
                SELECT id, manifest_version, name FROM devices WHERE uid = \(userID) AND dtid = \(typeID)
                    AND \(unescaped: lower) = \(PostgresStore.asciiLowered(candidate))
                ORDER BY created_at LIMIT 1 FOR KEY SHARE
                """) {
                return KnownDevice(id: try row.value("id"), dtid: typeID, manifestVersion: try row.value("manifest_version"),
                                   name: try row.value("name"))
            }
        }
        let nameTaken = try await db.exists("""
            SELECT 1 FROM devices WHERE uid = \(userID) AND \(unescaped: lower) = \(PostgresStore.asciiLowered(names.name))
            """)
        let device = KnownDevice(id: Secrets.newID(), dtid: typeID, manifestVersion: type.deviceType.latestVersion,
                                 name: nameTaken ? names.qualified : names.name)
        try await db.run("""
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
            VALUES (\(device.id), \(userID), \(typeID), \(device.name), \(device.manifestVersion), \(received), true)
            """)
        return device
    }
}
