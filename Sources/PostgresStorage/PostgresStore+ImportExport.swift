import Foundation
import PostgresNIO
import HealthCore
import HealthFormats
import HealthModel

/// `hmon import` of hmon's own export into a PostgreSQL store, with `LocalStore.importExport`'s promises:
/// one transaction (all or nothing; a dry run rolls it back), devices found by name and type or made,
/// each reading checked by `ReadingRules` as a new one, idempotent by reading id, and an id held by another
/// account refused rather than counted as already there. The file is read, and its readings checked and
/// encoded, on a thread of its own (`ExportReadingPreparer`); they go in one multi-row insert per few of
/// its batches, as Apple Health's readings do (`PostgresStore.importFile`).
extension PostgresStore {
    public func importExport(_ url: URL, userID: String, dryRun: Bool, at now: Date) async throws -> ImportResult {
        do {
            return try await bulkWrite(keep: !dryRun) { db in
                guard try await db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
                let received = now.millisecondsSince1970
                let writer = PostgresExportImportWriter(db: db, userID: userID, file: url.lastPathComponent, received: received)
                let pipe = BatchPipe<PreparedExportReading>(capacity: 16)
                let types = try await Self.exportDeviceTypes(in: db)
                BatchPipe.startReadingExport(url, into: pipe, preparing: ExportReadingPreparer(types: types, received: received,
                                                                                               file: url.lastPathComponent))
                try await Self.drain(pipe, into: writer, userID: userID, received: received, db: db)
                var imported = try pipe.result()
                imported.tally = writer.tally
                return imported
            }
        } catch let error as ImportError {
            throw error
        } catch let error as HealthError {
            throw error
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    /// The store's device types with their manifests, for `ExportReadingPreparer` (names are unique
    /// whatever their case: `device_types_by_lower_name`).
    private static func exportDeviceTypes(in db: PGConnection) async throws -> ExportDeviceTypes {
        var entries: [ExportDeviceTypes.Entry] = []
        for type in try await db.rows("SELECT * FROM device_types ORDER BY id").map(DeviceType.init(row:)) {
            entries.append(.init(type: type, manifest: try await db.manifest(ofType: type.id)))
        }
        return ExportDeviceTypes(entries)
    }
}
