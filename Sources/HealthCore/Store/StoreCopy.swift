import Foundation
import HealthModel

/// `hmon db copy FROM TO`: every row of one store into another, either engine to either, as it is —
/// the same ids, password and token hashes, times and reading JSON — in one transaction on the target,
/// so an interrupted copy leaves the target as it was.
///
/// Which tables and columns are copied is read from the source's live catalog, not from a list kept
/// here: a column both engines' migrations add is copied without any change to this file. The tables left
/// out on purpose are named below (`notCopied`), each with its reason.
public enum StoreCopy {
    /// Tables never copied, and why. `cleared` ones are emptied on the target by `--force` with the rest
    /// of its data; the others belong to the target's own schema and are never touched.
    package static let notCopied: [String: (reason: String, cleared: Bool)] = [
        "grdb_migrations": ("SQLite's record of its applied migrations", false),
        "hmon_meta": ("PostgreSQL's schema version, owner mark and change counter", false),
        "device_types": ("made by both engines' migrations, the same on both", false),
        "device_type_fields": ("made by both engines' migrations, the same on both", false),
        "day_totals_cache": ("per-day sums derived from the readings and signed with SQLite's rowids: recomputed", true),
        "undo_journal": ("undo belongs to the store where the change was made", true),
        // Never cleared: the kept sums' signatures rely on the versions only ever growing.
        "reading_day_versions": ("PostgreSQL's versions of the readings' days, bumped by its own triggers as the readings arrive", false),
        "field_change_kinds": ("PostgreSQL's copy of the kinds' table for its announcing triggers, written by each hmon that opens it", false),
        "pending_announcements": ("PostgreSQL's notes of what a write changed, kept only until it commits", false),
    ]

    /// A table as the copy moves it: its name and the columns it copies, in the source's order.
    package struct Table: Sendable, Equatable {
        package var name: String
        package var columns: [String]

        package init(name: String, columns: [String]) {
            self.name = name
            self.columns = columns
        }
    }

    /// One cell, as either engine reads and writes it: booleans as 0/1 (SQLite keeps a device's
    /// `connected` so), bytes as bytes (a reading's ids are `BinaryID` bytes on both).
    package enum Value: Sendable, Equatable {
        case null, integer(Int64), real(Double), text(String), bytes([UInt8])
    }

    /// How many rows a page of the copy moves.
    package static let pageSize = 5_000

    /// How far the copy is, for a progress line.
    public struct Progress: Sendable {
        public var table: String
        public var copied: Int
        public var total: Int

        package init(table: String, copied: Int, total: Int) {
            self.table = table
            self.copied = copied
            self.total = total
        }
    }

    /// Copies `source` into `target`. Refuses a target that already has accounts or readings unless
    /// `replacing` (then its rows are deleted first, in the same transaction). Returns the rows copied per table.
    @discardableResult
    public static func copy(from source: any StoreIdentity, to target: any StoreIdentity, replacing: Bool = false,
                            progress: (@Sendable (Progress) -> Void)? = nil) async throws -> [String: Int] {
        guard let reader = source as? any StoreRowCopying, let writer = target as? any StoreRowCopying else {
            throw HealthError.unsupported("copying needs two stores of this hmon (SQLite or PostgreSQL)")
        }
        if source.location == target.location {
            throw HealthError.invalidValue("the source and the target are the same store (\(source.location))")
        }
        let sourceCatalog = try await reader.copyCatalog()
        let targetCatalog = try await writer.copyCatalog()
        let tables = try plan(from: sourceCatalog, source: source.location, to: targetCatalog, target: target.location)
        let clearing = try cleared(on: targetCatalog, along: sourceCatalog)
        try await checkReadings(of: reader, tables: tables)
        var totals: [String: Int] = [:]
        for table in tables { totals[table.name] = try await reader.rowCount(table.name) }
        let sourceTotals = totals
        return try await writer.replaceRows(from: reader, tables: tables, clearing: clearing, totals: sourceTotals,
                                            replacing: replacing, progress: progress)
    }

    /// The refusal for a target that holds data, naming what it holds.
    package static func notEmpty(_ location: String, users: Int, readings: Int) -> HealthError {
        .invalidValue("\(location) is not empty (\(users) accounts, \(readings) readings): copy into a new store, or pass --force to replace what it holds")
    }
}

/// What an engine does for `StoreCopy`: describe its tables, read a table's rows page by page in their
/// insertion order, and write another store's rows inside one transaction of its own.
package protocol StoreRowCopying: HealthStore {
    /// The store's tables as its live catalog describes them.
    func copyCatalog() async throws -> StoreCopy.Catalog
    func rowCount(_ table: String) async throws -> Int
    /// At most `limit` rows after the one whose key is `after` (nil: from the start), in the engine's
    /// insertion order (SQLite's rowid, PostgreSQL's serial column, else the primary key), each in
    /// `table.columns`' order; with the last row's key, to pass as `after` for the next page (nil when the
    /// table is read whole).
    func rows(of table: StoreCopy.Table, after: StoreCopy.Value?, limit: Int) async throws
        -> (rows: [[StoreCopy.Value]], last: StoreCopy.Value?)
    /// Empties `clearing` (when `replacing` and the store holds data), then writes `tables` in their order.
    func replaceRows(from source: any StoreRowCopying, tables: [StoreCopy.Table], clearing: [String], totals: [String: Int],
                     replacing: Bool, progress: (@Sendable (StoreCopy.Progress) -> Void)?) async throws -> [String: Int]
}
