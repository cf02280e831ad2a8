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
                let tally = imported.tally
                let profile = imported.profile
                imported.tally = try await Self.runOffThePool({ session in
                    var filled = tally
                    try session.fillProfile(from: profile, userID: userID, now: now, tally: &filled)
                    return filled
                }, on: db)
                return imported
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw Self.mapped(error, location: location)
        }
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

    private typealias KnownDevice = ImportedDevice

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
        let names = type == .withings ? ImportDeviceName.scale : ImportDeviceName(source: source, type: type)
        if type != .withings { counts.noteCleaned(names) }
        let (userID, received) = (self.userID, self.received)
        var device = try await PostgresStore.runOffThePool({ session in
            try session.importDevice(named: names, type: type, userID: userID, createdAt: received)
        }, on: db)
        device.slot = counts.deviceSlot(named: device.name)
        devices[key] = device
        return device
    }
}
