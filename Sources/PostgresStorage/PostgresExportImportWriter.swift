import Foundation
import PostgresNIO
import HealthCore
import HealthFormats
import HealthModel

/// Inserts the readings of hmon's own export inside the import's transaction (`PostgresStore.importExport`):
/// each device found or made once by name and type, one multi-row insert per batch, and the counts.
final class PostgresExportImportWriter: PipelinedInsertWriter {
    private let db: PGConnection
    private let userID: String
    private let file: String
    private let received: Int64
    private var devices: [DeviceKey: Device] = [:]
    private(set) var tally = ImportTally()

    private struct DeviceKey: Hashable {
        var typeID: String
        var name: String
    }

    init(db: PGConnection, userID: String, file: String, received: Int64) {
        self.db = db
        self.userID = userID
        self.file = file
        self.received = received
    }

    /// An insert's readings, with the name of the device each went to.
    struct Batch {
        var readings: [PreparedExportReading]
        var deviceNames: [String]
    }

    func prepare(_ readings: [PreparedExportReading]) async throws -> (batch: Batch, columns: ImportedMessageColumns) {
        var columns = ImportedMessageColumns()
        var deviceNames: [String] = []
        for reading in readings {
            let device = try await device(named: reading.deviceName, type: reading.type)
            columns.append(mid: reading.readingID, sdid: device.id, sdtid: device.dtid, manifestVersion: device.manifestVersion,
                           ts: reading.ts, json: reading.json, numbers: reading.numbers)
            deviceNames.append(device.name)
        }
        return (Batch(readings: readings, deviceNames: deviceNames), columns)
    }

    func account(_ batch: Batch, added: Set<String>) async throws {
        var fresh = added
        let deviceNames = batch.deviceNames
        var notAdded: [PreparedExportReading] = []
        for (index, reading) in batch.readings.enumerated() {
            if fresh.remove(reading.readingID) != nil {
                if let kind = reading.kind { tally.added[kind, default: 0] += 1 } else { tally.addedOther += 1 }
                tally.addedByDevice[deviceNames[index], default: 0] += 1
            } else {
                notAdded.append(reading)
            }
        }
        guard !notAdded.isEmpty else { return }
        // Of the ids not added: one under another account is refused (ids are unique in a store, so it is not
        // "already there"); one written by this very transaction (`xmin`) is a reading whose rows stand apart
        // in the file, which the streamed reading cannot put together.
        var stored: [String: (uid: String, ours: Bool)] = [:]
        for row in try await db.all("""
            SELECT mid, uid, xmin = pg_current_xact_id()::xid AS ours FROM messages WHERE mid = ANY(\(notAdded.map { ByteaID($0.readingID) })::bytea[])
            """) {
            stored[try row.value("mid", ByteaID.self).id] = (try row.value("uid", ByteaID.self).id, try row.value("ours", Bool.self))
        }
        try count(notAdded, stored: stored)
    }

    private func count(_ notAdded: [PreparedExportReading], stored: [String: (uid: String, ours: Bool)]) throws {
        for reading in notAdded {
            func problem(_ text: String) -> ImportError { ImportError(file: file, line: reading.line, problem: text) }
            if let found = stored[reading.readingID], found.uid != userID {
                throw problem("reading \(reading.readingID) belongs to another account in this store: "
                              + "import an export into the account it came from, or into another store")
            }
            if stored[reading.readingID]?.ours == true {
                throw problem("reading \(reading.readingID) has rows apart from each other in the file: "
                              + "put each reading's rows together, as hmon export writes them")
            }
            if let kind = reading.kind { tally.alreadyThere[kind, default: 0] += 1 } else { tally.alreadyThereOther += 1 }
        }
    }

    private func device(named name: String, type: DeviceType) async throws -> Device {
        let key = DeviceKey(typeID: type.id, name: name)
        if let known = devices[key] { return known }
        let (userID, received) = (self.userID, self.received)
        let device = try await PostgresStore.runOffThePool({ session in
            try session.exportedDevice(named: name, type: type, userID: userID, createdAt: received)
        }, on: db)
        devices[key] = device
        return device
    }
}
