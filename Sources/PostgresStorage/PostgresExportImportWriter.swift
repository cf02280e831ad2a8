import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Inserts the readings of hmon's own export inside the import's transaction (`PostgresStore.importExport`):
/// each device found or made once by name and type, one multi-row insert per batch, and the counts.
final class PostgresExportImportWriter {
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

    func insert(_ batch: [PreparedExportReading]) async throws {
        var mids: [String] = [], sdids: [String] = [], sdtids: [String] = [], ts: [Int64] = [], mvs: [Int64] = [], data: [String] = []
        // As in `PostgresImportWriter.insert`: NaN for none, turned back into NULL by NULLIF.
        var numbers = [[Double]](repeating: [], count: 4)
        var deviceNames: [String] = []
        for reading in batch {
            let device = try await device(named: reading.deviceName, type: reading.type)
            mids.append(reading.readingID)
            sdids.append(device.id)
            sdtids.append(device.dtid)
            ts.append(reading.ts)
            mvs.append(Int64(device.manifestVersion))
            data.append(reading.json)
            deviceNames.append(device.name)
            for (column, value) in reading.numbers.values.enumerated() { numbers[column].append(value ?? .nan) }
        }
        guard !mids.isEmpty else { return }
        let uids = [String](repeating: userID, count: mids.count)
        let cts = [Int64](repeating: received, count: mids.count)
        let inserted = try await db.all("""
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data, \(unescaped: ReadingNumbers.columns))
            SELECT mid, sdid, sdtid, uid, ts, cts, mv, data, NULLIF(w, 'NaN'), NULLIF(a, 'NaN'), NULLIF(c, 'NaN'), NULLIF(b, 'NaN')
            FROM unnest(\(mids)::text[], \(sdids)::text[], \(sdtids)::text[], \(uids)::text[], \(ts)::int8[],
                        \(cts)::int8[], \(mvs)::int8[], \(data)::text[], \(numbers[0])::float8[], \(numbers[1])::float8[],
                        \(numbers[2])::float8[], \(numbers[3])::float8[])
                AS reading(mid, sdid, sdtid, uid, ts, cts, mv, data, w, a, c, b)
            ON CONFLICT (mid) DO NOTHING RETURNING mid
            """)
        var fresh = Set<String>()
        for row in inserted { fresh.insert(try row.value("mid", String.self)) }
        var notAdded: [PreparedExportReading] = []
        for (index, reading) in batch.enumerated() {
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
            SELECT mid, uid, xmin = pg_current_xact_id()::xid AS ours FROM messages WHERE mid = ANY(\(notAdded.map(\.readingID))::text[])
            """) {
            stored[try row.value("mid", String.self)] = (try row.value("uid", String.self), try row.value("ours", Bool.self))
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
        let device = try await PostgresStore.findOrMakeDevice(named: name, type: type, userID: userID, now: received, in: db)
        devices[key] = device
        return device
    }
}
