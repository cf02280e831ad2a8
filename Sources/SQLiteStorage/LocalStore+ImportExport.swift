import Foundation
import GRDB
import HealthCore
import HealthFormats
import HealthModel

/// `hmon import` of hmon's own export: every reading back with its id, time, device and fields.
extension LocalStore {
    /// Reads an `hmon export` file (CSV or JSON) and adds its readings to the user's devices in one
    /// transaction; all or nothing, like `importFile`, and through the same two threads: the file is read,
    /// its rows put together and each reading checked and encoded on one (`ExportReadingPreparer`), while
    /// this one finds the devices and inserts, so memory stays flat at any size.
    ///
    /// - Rows sharing a `reading_id` are one reading, next to each other as `hmon export` writes them;
    ///   they must agree on time and device.
    /// - Devices are found by name and type, else made (named "Name (Type)" when the name is taken by a
    ///   device of another type).
    /// - Each reading is checked by `ReadingRules` against its device type's manifest, as a new one is;
    ///   a CSV value is a number or text as the manifest's field says.
    /// - Idempotent: a reading whose id is stored already is left as it is and counted "already there".
    public func importExport(_ url: URL, userID: String, dryRun: Bool, at now: Date) throws -> ImportResult {
        guard dryRun, readOnlyOpening != nil else {
            try refuseIfOpenedToRead()
            return try runImportExport(url, userID: userID, dryRun: dryRun, now: now)
        }
        return try onDryRunConnection { try $0.runImportExport(url, userID: userID, dryRun: true, now: now) }
    }

    private func runImportExport(_ url: URL, userID: String, dryRun: Bool, now: Date) throws -> ImportResult {
        do {
            return try writer.writeWithoutTransaction { db in
                var result: ImportResult?
                try db.inTransaction(.immediate) {
                    guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [userID]) == true else {
                        throw HealthError.unknownUser(userID)
                    }
                    let writer = try ExportImportWriter(db: db, userID: userID, file: url.lastPathComponent, received: now.millisecondsSince1970)
                    let pipe = BatchPipe<PreparedExportReading>(capacity: 16)
                    BatchPipe.startReadingExport(url, into: pipe, preparing: try writer.preparer())
                    do {
                        while let batch = pipe.receive() {
                            for reading in batch { try writer.insert(reading) }
                        }
                    } catch {
                        pipe.cancel()
                        throw error
                    }
                    var imported = try pipe.result()
                    writer.finish(into: &imported.tally)
                    result = imported
                    return dryRun ? .rollback : .commit
                }
                return result!
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw mapped(error)
        }
    }

    /// The store's device types with their manifests, oldest first, for `ExportReadingPreparer`.
    static func exportDeviceTypes(in db: Database) throws -> ExportDeviceTypes {
        let types = try Row.fetchAll(db, sql: "SELECT * FROM device_types ORDER BY rowid").map { try DeviceType(row: SQLiteSession.storeRow($0)) }
        return ExportDeviceTypes(try types.map { .init(type: $0, manifest: try SQLiteSession(db: db).manifest(ofType: $0.id)) })
    }
}
