import Foundation
import GRDB
import HealthCore
import HealthFormats
import HealthModel

/// Bringing an export into the store: all or nothing per file, and idempotent.
extension LocalStore {
    /// Reads `url` and adds its readings to the user's devices in one write transaction.
    ///
    /// - All or nothing: the file is read while the transaction is open and each reading inserted as it
    ///   is found (the file is read on a second thread, a few batches ahead of the inserts, so memory
    ///   stays flat); any error rolls everything back and nothing of the file is kept.
    /// - Idempotent: each reading's `mid` is derived from the user, its source, kind, time and value,
    ///   and inserted with `ON CONFLICT DO NOTHING`, so a second import of the same file — or an export
    ///   overlapping an earlier one — adds only what is new (`tally.added` vs `tally.alreadyThere`).
    /// - Readings land on devices named after their source ("Apple Watch", "Jörg's iPhone") of the
    ///   built-in type of their kind, created when missing.
    /// - The profile's empty birth date, sex and height are filled from the export.
    /// - `dryRun` counts what an import would add without writing a reading (see `ImportWriter`), fills
    ///   the profile and finds or makes the devices as an import would, then rolls all of it back.
    ///
    /// Synchronous on purpose: the whole file is one transaction on the writer connection.
    /// `progress` is called on the reading thread, about once per megabyte.
    /// Throws `ImportError` for a malformed file, `HealthError` for a store problem.
    public func importFile(_ url: URL, userID: String, dryRun: Bool, timeZone: TimeZone, options: ImportOptions,
                           at now: Date, progress: (@Sendable (ImportProgress) -> Void)?) throws -> ImportResult {
        guard dryRun, readOnlyOpening != nil else {
            try refuseIfOpenedToRead()
            return try runImport(url, userID: userID, dryRun: dryRun, timeZone: timeZone, options: options, now: now, progress: progress)
        }
        return try onDryRunConnection {
            try $0.runImport(url, userID: userID, dryRun: true, timeZone: timeZone, options: options, now: now, progress: progress)
        }
    }

    private func runImport(_ url: URL, userID: String, dryRun: Bool, timeZone: TimeZone, options: ImportOptions, now: Date,
                           progress: (@Sendable (ImportProgress) -> Void)?) throws -> ImportResult {
        do {
            return try writer.writeWithoutTransaction { db in
                // Each row's device and user are ones this transaction found or made for the user it checked,
                // so SQLite's two foreign-key look-ups per reading (a tenth of its work on an import) check
                // nothing; devices and the profile are written as usual. Only settable outside a transaction.
                let checksForeignKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? true
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { if checksForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                var result: ImportResult?
                try db.inTransaction(.immediate) {
                    guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [userID]) == true else {
                        throw HealthError.unknownUser(userID)
                    }
                    // The page cache stays at SQLite's default 2 MB. Measured (release build, alternated runs):
                    // 2, 8, 16, 32, 48 and 64 MB imported a 138 MB and a 500 MB export as fast (the bigger ones
                    // a little slower), and every MB of cache is a MB of the import's peak memory (16 MB: 53 MB).
                    let writer = try ImportWriter(db: db, userID: userID, now: now, writesReadings: !dryRun, via: options.path)
                    let pipe = BatchPipe<ImportRow>(capacity: 16)
                    BatchPipe.startReading(url, timeZone: timeZone, options: options, progress: progress, into: pipe,
                                           preparing: writer.preparer)
                    do {
                        while let batch = pipe.receive() {
                            for row in batch { try writer.insert(row) }
                        }
                    } catch {
                        pipe.cancel()
                        throw error
                    }
                    var imported = try pipe.result()
                    writer.finish(into: &imported.tally)
                    try SQLiteSession(db: db).fillProfile(from: imported.profile, userID: userID, now: now, tally: &imported.tally)
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
}
