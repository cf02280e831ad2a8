import Foundation
import HealthCore
import HealthFormats
import HealthModel
import GRDB

/// Inserts the readings of hmon's own export inside the import's transaction (`LocalStore.importExport`):
/// finds or makes each device once by name and type, inserts through `MessageInsertStatement`, and counts
/// what was new and what the store already had.
final class ExportImportWriter {
    private let db: Database
    private let userID: String
    private let file: String
    private let received: Int64
    private let inserter: MessageInsertStatement
    /// Rows with a larger rowid were written by this import: a reading id found there again means the
    /// file holds one reading's rows apart, which the streamed reading cannot put together.
    private let lastRowIDBefore: Int64
    private var devices: [DeviceKey: Device] = [:]
    private var last: (key: DeviceKey, device: Device)?
    private var tally = ImportTally()

    private struct DeviceKey: Hashable {
        var typeID: String
        var name: String
    }

    init(db: Database, userID: String, file: String, received: Int64) throws {
        self.db = db
        self.userID = userID
        self.file = file
        self.received = received
        inserter = try MessageInsertStatement(db: db, userID: userID, received: received)
        lastRowIDBefore = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM messages") ?? 0
    }

    /// What the reading thread does for each reading before this writer inserts it.
    func preparer() throws -> ExportReadingPreparer {
        ExportReadingPreparer(types: try LocalStore.exportDeviceTypes(in: db), received: received, file: file)
    }

    func insert(_ reading: PreparedExportReading) throws {
        let device = try device(named: reading.deviceName, type: reading.type)
        let added = try inserter.insert(mid: reading.readingID, json: reading.json, ts: reading.ts, numbers: reading.numbers,
                                        device: .init(id: device.id, dtid: device.dtid, manifestVersion: device.manifestVersion))
        if added {
            if let kind = reading.kind { tally.added[kind, default: 0] += 1 } else { tally.addedOther += 1 }
            tally.addedByDevice[device.name, default: 0] += 1
            return
        }
        let stored = try Row.fetchOne(db, sql: "SELECT rowid, uid FROM messages WHERE mid = ?", arguments: [StoredID(reading.readingID)])
        // Reading ids are unique in a store: the same id under another account is not "already there".
        if let stored, stored.storedID("uid") != userID {
            throw ImportError(file: file, line: reading.line, problem: "reading \(reading.readingID) belongs to another account in this store: "
                              + "import an export into the account it came from, or into another store")
        }
        if let stored, (stored["rowid"] as Int64?) ?? 0 > lastRowIDBefore {
            throw ImportError(file: file, line: reading.line, problem: "reading \(reading.readingID) has rows apart from each other in the file: "
                              + "put each reading's rows together, as hmon export writes them")
        }
        if let kind = reading.kind { tally.alreadyThere[kind, default: 0] += 1 } else { tally.alreadyThereOther += 1 }
    }

    func finish(into result: inout ImportTally) {
        inserter.finish()
        result = tally
    }

    private func device(named name: String, type: DeviceType) throws -> Device {
        let key = DeviceKey(typeID: type.id, name: name)
        if let last, last.key == key { return last.device }
        let device = try devices[key] ?? SQLiteSession(db: db).exportedDevice(named: name, type: type, userID: userID, createdAt: received)
        devices[key] = device
        last = (key, device)
        return device
    }
}
