import Foundation
import HealthCore
import HealthFormats
import HealthModel
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif

/// Inserts imported readings inside the import's transaction: finds or creates devices once per
/// source and type, and counts per kind what was new and what the store already had. Each row comes
/// encoded, with its id, from the reading thread (`ImportRowPreparer`).
///
/// The insert is `MessageInsertStatement` (bound through SQLite's C interface, prepared once).
///
/// A dry run (`writesReadings: false`) inserts nothing into `messages`: each reading's id is looked up
/// there and noted in a temporary table, so the counts are the import's (a reading twice in the file
/// counts once) without building the row, its generated columns and four index entries only to roll them
/// back. The temporary table lives in SQLite's temporary file, so memory stays flat at any size.
final class ImportWriter {
    private let db: Database
    private let connection: OpaquePointer
    private let userID: String
    private let received: Int64
    private let inserter: MessageInsertStatement
    /// A dry run's statement: notes a reading's id unless the store or the file already had it.
    private let noteStatement: Statement?
    private var devices: [ImportDeviceKey: KnownDevice] = [:]
    private var last: (key: ImportDeviceKey, device: KnownDevice)?
    private var counts = ImportCounts()

    private typealias KnownDevice = ImportedDevice

    init(db: Database, userID: String, now: Date, writesReadings: Bool = true, via: ReadingPath? = nil) throws {
        guard let connection = db.sqliteConnection else { throw HealthError.storeUnavailable("the database is closed") }
        self.db = db
        self.connection = connection
        self.userID = userID
        received = now.millisecondsSince1970
        inserter = try MessageInsertStatement(db: db, userID: userID, received: received, via: via)
        if writesReadings {
            noteStatement = nil
        } else {
            // Rolled back with the import's transaction, like everything else a dry run does.
            try db.execute(sql: "CREATE TEMP TABLE import_dry_run (mid BLOB NOT NULL PRIMARY KEY) WITHOUT ROWID")
            noteStatement = try db.makeStatement(sql: """
                INSERT INTO temp.import_dry_run (mid) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM main.messages WHERE mid = ?1)
                ON CONFLICT (mid) DO NOTHING
                """)
        }
    }

    /// What the reading thread does for each reading before this writer inserts it.
    var preparer: ImportRowPreparer { ImportRowPreparer(userID: userID, received: received) }

    func insert(_ row: ImportRow) throws {
        let reading = row.reading
        guard case .row(let json, let mid, let numbers) = row.outcome else {
            if case .skipped(let reason) = row.outcome { counts.skip(reason, kind: reading.kind) }
            return
        }
        let device = try device(for: reading.source, type: reading.kind.builtInType)
        if let noteStatement {
            let wouldAdd = try note(mid, noteStatement.sqliteStatement)
            count(reading, on: device, added: wouldAdd)
            return
        }
        if let mark = reading.spanTotalMark {
            try replaceSpanTotal(marked: mark, keeping: mid, json: json, ts: reading.timestamp, device: device)
        }
        let wasAdded = try inserter.insert(mid: mid, json: json, ts: reading.timestamp, numbers: numbers,
                                           device: .init(id: device.id, dtid: device.dtid, manifestVersion: device.manifestVersion))
        count(reading, on: device, added: wasAdded)
    }

    /// Deletes the total the device holds for the span at `ts`, unless it is this very reading (same id and
    /// data), so the insert that follows replaces a figure from an earlier download instead of adding to it.
    /// Readings stored before span totals had span ids are found by their column, not their id.
    private func replaceSpanTotal(marked mark: SpanTotalMark, keeping mid: String, json: String, ts: Int64, device: KnownDevice) throws {
        var arguments: StatementArguments = [StoredID(userID), StoredID(device.id), ts]
        let marked: String
        switch mark {
        case .column(let column):
            marked = "\(column) IS NOT NULL"
        case .field(let field):
            marked = "json_type(data, ?) IS NOT NULL"
            arguments += ["$." + field]
        }
        arguments += [StoredID(mid), json]
        try db.execute(sql: """
            DELETE FROM messages WHERE uid = ? AND sdid = ? AND ts = ? AND \(marked) AND NOT (mid = ? AND data = ?)
            """, arguments: arguments)
        // A replacement may take the deleted row's rowid, which leaves a kept day's signature as it was.
        if db.changesCount > 0 { try LocalStore.forgetDayTotals(userID: userID, coveringTs: ts, in: db) }
    }

    /// A dry run's step: whether the reading would be added.
    private func note(_ mid: String, _ statement: OpaquePointer) throws -> Bool {
        sqlite3_reset(statement)
        try bind(mid, 1, statement)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw error(code) }
        return sqlite3_changes(connection) > 0
    }

    private func count(_ reading: ImportedReading, on device: KnownDevice, added wasAdded: Bool) {
        counts.count(kindAt: reading.kind.index, deviceSlot: device.slot, added: wasAdded)
    }

    func finish(into tally: inout ImportTally) {
        inserter.finish()
        if let noteStatement { sqlite3_reset(noteStatement.sqliteStatement) }
        counts.finish(into: &tally)
    }

    /// Binds a reading's id as its `StoredID` bytes.
    private func bind(_ id: String, _ position: Int32, _ statement: OpaquePointer) throws {
        try BinaryID.encode(id).withUnsafeBytes { bytes in
            let code = sqlite3_bind_blob(statement, position, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    private func error(_ code: Int32) -> DatabaseError { inserter.error(code) }

    /// The user's device for a source and type. A scale's readings (weights, heights, body composition)
    /// from every source land on the person's one scale, their oldest, or a new "Scale": one weight history,
    /// and no scale holding only a height. Other kinds land on a device named exactly after the source, else
    /// "Source (Type name)" (device names are unique per user), created when there is none. A source
    /// holding characters `TextRules` refuses in names is named with them replaced (and reported);
    /// the readings' ids still come from the source as written, so re-importing stays idempotent.
    private func device(for source: String, type: BuiltInDeviceType) throws -> KnownDevice {
        let key = ImportDeviceKey(source: source, type: type)
        if let last, last.key == key { return last.device }
        var device: KnownDevice
        if let known = devices[key] {
            device = known
        } else {
            let names = type == .withings ? ImportDeviceName.scale : ImportDeviceName(source: source, type: type)
            if type != .withings { counts.noteCleaned(names) }
            device = try SQLiteSession(db: db).importDevice(named: names, type: type, userID: userID, createdAt: received)
            device.slot = counts.deviceSlot(named: device.name)
        }
        devices[key] = device
        last = (key, device)
        return device
    }
}
