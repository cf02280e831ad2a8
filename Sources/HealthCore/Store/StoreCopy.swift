import Foundation
import HealthModel

/// `hmon db copy FROM TO`: every row of one store into another, either engine to either, as it is —
/// the same ids, password and token hashes, times and reading JSON — in one transaction on the target,
/// so an interrupted copy leaves the target as it was.
///
/// The device types come from both engines' migrations and are the same; the per-day sums
/// (`day_totals_cache`) are derived and keyed by SQLite's rowids, so the target recomputes them. The undo
/// journal (`undo_journal`) stays behind: undo belongs to the store where the change was made.
public enum StoreCopy {
    /// What a column holds, so each engine binds and reads it with its own type (SQLite keeps a
    /// device's `connected` as 0/1, PostgreSQL as a boolean).
    /// `id` is an id each engine keeps as `BinaryID` bytes (schema version 20), copied as its text.
    package enum Kind: Sendable { case text, integer, real, boolean, id }

    package struct Table: Sendable {
        package var name: String
        package var columns: [(name: String, kind: Kind)]
    }

    /// In an order the foreign keys accept; columns as of schema version 13 on both engines, with the four
    /// numbers beside a reading's JSON (plain columns since SQLite's 14 and PostgreSQL's 15, generated before)
    /// and a code's PKCE challenge (16 on both), and the byte keys readings refer to users and devices by (20).
    package static let tables: [Table] = [
        Table(name: "users", columns: [("id", .text), ("name", .text), ("full_name", .text), ("email", .text),
                                       ("password_hash", .text), ("created_at", .integer), ("modified_at", .integer),
                                       ("name_key", .text), ("name_skeleton", .text), ("key", .id)]),
        Table(name: "profiles", columns: [("user_id", .text), ("birth_date", .text), ("sex", .text), ("height_cm", .real),
                                          ("lean_mass_kg", .real), ("mass_unit", .text), ("energy_unit", .text),
                                          ("bmr_formula", .text), ("goal_kg", .real)]),
        Table(name: "devices", columns: [("id", .text), ("uid", .text), ("dtid", .text), ("name", .text),
                                         ("manifest_version", .integer), ("created_at", .integer), ("connected", .boolean),
                                         ("key", .id)]),
        Table(name: "messages", columns: [("mid", .id), ("sdid", .id), ("sdtid", .id), ("uid", .id), ("ts", .integer),
                                          ("cts", .integer), ("mv", .integer), ("data", .text), ("weight", .real),
                                          ("active_energy", .real), ("calories", .real), ("basal_energy", .real)]),
        Table(name: "oauth_clients", columns: [("id", .text), ("secret_hash", .text), ("name", .text), ("redirect_uri", .text),
                                               ("created_at", .integer), ("owner_id", .text)]),
        Table(name: "tokens", columns: [("hash", .text), ("user_id", .text), ("kind", .text), ("client_id", .text),
                                        ("scope", .text), ("redirect_uri", .text), ("expires_at", .integer),
                                        ("created_at", .integer), ("family", .text), ("spent_at", .integer),
                                        // Copied with its code: a code without its challenge would be exchanged without PKCE.
                                        ("code_challenge", .text)]),
        Table(name: "welltory_links", columns: [("hash", .text), ("user_id", .text), ("device_id", .text), ("created_at", .integer)]),
        Table(name: "exist_service_devices", columns: [("uid", .text), ("client_id", .text), ("dtid", .text), ("device_id", .text)]),
        Table(name: "exist_owners", columns: [("uid", .text), ("attribute", .text), ("client_id", .text), ("service", .text),
                                              ("device_id", .text)]),
        Table(name: "personal_tokens", columns: [("id", .text), ("hash", .text), ("user_id", .text), ("label", .text),
                                                 ("scope", .text), ("created_at", .integer)]),
        Table(name: "push_links", columns: [("id", .text), ("kind", .text), ("hash", .text), ("user_id", .text),
                                            ("created_at", .integer), ("last_used_at", .integer)]),
        Table(name: "exist_pushed", columns: [("server", .text), ("uid", .text), ("attribute", .text), ("day", .text), ("value", .real)]),
    ]

    /// Tables SQLite keeps WITHOUT ROWID (no rowid to page by): small, read whole.
    package static let unpaged: Set<String> = ["exist_service_devices", "exist_owners", "exist_pushed"]

    /// One cell.
    package enum Value: Sendable, Equatable {
        case null, integer(Int64), real(Double), text(String)
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
    public static func copy(from source: any HealthStore, to target: any HealthStore, replacing: Bool = false,
                            progress: (@Sendable (Progress) -> Void)? = nil) async throws -> [String: Int] {
        guard let reader = source as? any StoreRowCopying, let writer = target as? any StoreRowCopying else {
            throw HealthError.unsupported("copying needs two stores of this hmon (SQLite or PostgreSQL)")
        }
        if source.location == target.location {
            throw HealthError.invalidValue("the source and the target are the same store (\(source.location))")
        }
        try await checkReadings(of: reader)
        var totals: [String: Int] = [:]
        for table in tables { totals[table.name] = try await reader.rowCount(table.name) }
        let sourceTotals = totals
        return try await writer.replaceRows(from: reader, totals: sourceTotals, replacing: replacing, progress: progress)
    }

    /// The refusal for a target that holds data, naming what it holds.
    package static func notEmpty(_ location: String, users: Int, readings: Int) -> HealthError {
        .invalidValue("\(location) is not empty (\(users) accounts, \(readings) readings): copy into a new store, or pass --force to replace what it holds")
    }
}

/// What an engine does for `StoreCopy`: read a table's rows page by page in their insertion order, and
/// write another store's rows inside one transaction of its own.
package protocol StoreRowCopying: HealthStore {
    func rowCount(_ table: String) async throws -> Int
    /// At most `limit` rows after the one whose key is `after` (nil: from the start), in the engine's
    /// insertion order (SQLite's rowid, PostgreSQL's `seq`, else the primary key), each in
    /// `table.columns`' order; with the last row's key, to pass as `after` for the next page.
    func rows(of table: StoreCopy.Table, after: StoreCopy.Value?, limit: Int) async throws
        -> (rows: [[StoreCopy.Value]], last: StoreCopy.Value?)
    func replaceRows(from source: any StoreRowCopying, totals: [String: Int], replacing: Bool,
                     progress: (@Sendable (StoreCopy.Progress) -> Void)?) async throws -> [String: Int]
}
