import Foundation
import HealthCore
import HealthModel
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif

/// `MessageRecord`'s insert (`INSERT … ON CONFLICT (mid) DO NOTHING`), prepared once and bound and stepped
/// through SQLite's C interface, for the imports (Apple Health's and hmon's own export).
///
/// A large export is close to a million inserts, and GRDB's per-call argument boxing (a dictionary of
/// `DatabaseValue`s per record) costs more than SQLite's own work on each row. Measured on a generated
/// 300 MB export.xml, release build, 2 cores: `MessageRecord.insertUnlessStored` per reading imported at
/// 115 MB/s into an empty store and 171 MB/s again (all already there); binding here, 190 and 400 MB/s.
final class MessageInsertStatement {
    private let connection: OpaquePointer
    private let statement: Statement
    private let parameters: Parameters
    /// The device whose id, type and manifest version the statement holds.
    private var boundDeviceID: String?

    /// A device as the insert binds it.
    struct Target {
        var id: String
        var dtid: String
        var manifestVersion: Int
    }

    /// Where each of `MessageRecord`'s columns is bound in the statement.
    private struct Parameters {
        var mid, sdid, sdtid, uid, ts, cts, mv, data: Int32
        var weight, activeEnergy, calories, basalEnergy, via: Int32

        init(_ statement: OpaquePointer) throws {
            func index(_ column: MessageRecord.CodingKeys) throws -> Int32 {
                let index = sqlite3_bind_parameter_index(statement, ":" + column.rawValue)
                guard index > 0 else { throw HealthError.storeUnavailable("the message insert has no parameter :\(column.rawValue)") }
                return index
            }
            (mid, sdid, sdtid, uid) = (try index(.mid), try index(.sdid), try index(.sdtid), try index(.uid))
            (ts, cts, mv, data) = (try index(.ts), try index(.cts), try index(.mv), try index(.data))
            (weight, activeEnergy) = (try index(.weight), try index(.activeEnergy))
            (calories, basalEnergy) = (try index(.calories), try index(.basalEnergy))
            via = try index(.via)
        }
    }

    /// The user, the time received and the way the readings came are bound once, here: a reset keeps the bindings.
    init(db: Database, userID: String, received: Int64, via: ReadingPath? = nil) throws {
        guard let connection = db.sqliteConnection else { throw HealthError.storeUnavailable("the database is closed") }
        self.connection = connection
        statement = try db.makeStatement(sql: MessageRecord.insertUnlessStoredSQL)
        parameters = try Parameters(statement.sqliteStatement)
        try bindID(userID, parameters.uid)
        try check(sqlite3_bind_int64(statement.sqliteStatement, parameters.cts, received))
        if let via { try check(sqlite3_bind_text(statement.sqliteStatement, parameters.via, via.rawValue, -1, sqliteTransient)) }
    }

    /// Inserts the reading unless its id is stored; whether it was added.
    func insert(mid: String, json: String, ts: Int64, numbers: ReadingNumbers, device: Target) throws -> Bool {
        let mid = BinaryID.encode(mid)
        var json = json
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        // The device is bound when it changes (readings come in long runs of one), so each row copies no text of it.
        if boundDeviceID != device.id {
            try bindID(device.id, parameters.sdid)
            try bindID(device.dtid, parameters.sdtid)
            try check(sqlite3_bind_int64(raw, parameters.mv, Int64(device.manifestVersion)))
            boundDeviceID = device.id
        }
        try check(sqlite3_bind_int64(raw, parameters.ts, ts))
        try bind(numbers.weight, parameters.weight)
        try bind(numbers.activeEnergy, parameters.activeEnergy)
        try bind(numbers.calories, parameters.calories)
        try bind(numbers.basalEnergy, parameters.basalEnergy)
        // The id and the JSON are bound in place, without SQLite's copy (a malloc and a free each per row):
        // SQLite reads them only while stepping, inside these closures, and `finish` unbinds them.
        let code = try mid.withUnsafeBufferPointer { mid in
            try json.withUTF8 { json in
                try bindBlobInPlace(mid, parameters.mid)
                try bindInPlace(json, parameters.data)
                return sqlite3_step(raw)
            }
        }
        guard code == SQLITE_DONE else { throw error(code) }
        return sqlite3_changes(connection) > 0
    }

    /// Unbinds everything, the bytes bound in place among them.
    func finish() {
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    private func bind(_ number: Double?, _ position: Int32) throws {
        let raw = statement.sqliteStatement
        try check(number.map { sqlite3_bind_double(raw, position, $0) } ?? sqlite3_bind_null(raw, position))
    }

    /// Binds an id as its `StoredID` bytes (copied by SQLite).
    private func bindID(_ id: String, _ position: Int32) throws {
        let raw = statement.sqliteStatement
        try BinaryID.encode(id).withUnsafeBytes { bytes in
            try check(sqlite3_bind_blob(raw, position, bytes.baseAddress, Int32(bytes.count), sqliteTransient))
        }
    }

    /// Binds an id's bytes without a copy, as `bindInPlace` binds text.
    private func bindBlobInPlace(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int32) throws {
        try check(sqlite3_bind_blob(statement.sqliteStatement, position, bytes.baseAddress, Int32(bytes.count), nil))
    }

    /// Binds `bytes` without a copy (`SQLITE_STATIC`): they must stay valid until the statement is
    /// stepped and its bindings are replaced or cleared.
    private func bindInPlace(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int32) throws {
        let raw = statement.sqliteStatement
        try check(bytes.withMemoryRebound(to: CChar.self) {
            sqlite3_bind_text(raw, position, $0.baseAddress, Int32(bytes.count), nil)
        })
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw error(code) }
    }

    func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
    }
}

/// SQLite copies the bound bytes (its `SQLITE_TRANSIENT`, a macro Swift cannot import).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
