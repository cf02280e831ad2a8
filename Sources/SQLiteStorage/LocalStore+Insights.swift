import Foundation
import GRDB
import HealthCore
import HealthModel

extension LocalStore {
    /// What each day sums, one expression per slot of `DayTotals` (`ReadingKind.daySlots`): a column the
    /// store keeps beside the JSON where the field has one, else the field read from the reading's JSON.
    private static let dayTotalColumns = ReadingKind.daySlots.map { kind in
        ReadingNumbers.columnOfField[kind.field].map { "m.\($0)" } ?? "json_extract(m.data, '$.\(kind.field)')"
    }

    /// The days as a JSON array of `[start, stop]` for the queries' `json_each`.
    private static func boundsJSON(_ bounds: [(start: Int64, stop: Int64)]) -> String {
        "[" + bounds.map { "[\($0.start),\($0.stop)]" }.joined(separator: ",") + "]"
    }

    private static let boundsCTE = """
        WITH bounds AS (
            SELECT CAST(key AS INTEGER) AS i, json_extract(value, '$[0]') AS start, json_extract(value, '$[1]') AS stop
            FROM json_each(?)
        )
        """

    /// A user's readings summed per local day, for the days starting at `dayStarts` (ms, ascending; each
    /// day ends where the next starts, the last at `end`): what `DailyAttributes` is built from.
    ///
    /// Reading a year of watch samples' JSON costs most of a second, so each day's sums are kept in
    /// `day_totals_cache` with the signature of its readings (count and rowid sum, read from the
    /// user-and-time index alone). A day whose signature changed, or that was never summed, is summed
    /// again from its readings in one query; the rest come from the cache.
    public func dayTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DayTotals] {
        guard !dayStarts.isEmpty else { return [:] }
        let bounds = Array(zip(dayStarts, dayStarts.dropFirst() + [end])).map { (start: $0, stop: $1) }
        let (known, stale) = try await read { db in try Self.cachedDayTotals(userID: userID, bounds: bounds, in: db) }
        guard !stale.isEmpty else { return known }
        let fresh = try await read { db in
            try Self.summedDayTotals(userID: userID, bounds: stale.map { bounds[$0.day] }, in: db)
        }
        var result = known
        var rows: [(day: Int, signature: (Int, Int64), totals: DayTotals)] = []
        for (position, entry) in stale.enumerated() {
            let totals = fresh[position] ?? DayTotals()
            result[entry.day] = totals
            rows.append((entry.day, entry.signature, totals))
        }
        // Keeping the sums is an optimisation: a store opened read-only still answers.
        let kept = rows
        _ = try? await write { db in
            for row in kept {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO day_totals_cache (uid, start, stop, readings, rowid_sum, totals) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [userID, bounds[row.day].start, bounds[row.day].stop, row.signature.0, row.signature.1,
                                row.totals.cacheText])
            }
        }
        return result
    }

    /// The days whose cached sums still match their readings, and the others with their signatures.
    private static func cachedDayTotals(userID: String, bounds: [(start: Int64, stop: Int64)], in db: Database) throws
        -> (known: [Int: DayTotals], stale: [(day: Int, signature: (Int, Int64))]) {
        var signatures: [Int: (Int, Int64)] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: boundsCTE + """
                SELECT bounds.i, count(*), sum(m.rowid)
                FROM bounds JOIN messages AS m INDEXED BY messages_by_user_time
                    ON m.uid = ? AND m.ts >= bounds.start AND m.ts < bounds.stop
                GROUP BY bounds.i
                """,
            arguments: [boundsJSON(bounds), StoredID(userID)])
        while let row = try rows.next() { signatures[row[0]] = (row[1], row[2]) }
        var cached: [Int64: (readings: Int, rowidSum: Int64, totals: String)] = [:]
        let cachedRows = try Row.fetchCursor(
            db,
            sql: "SELECT start, stop, readings, rowid_sum, totals FROM day_totals_cache WHERE uid = ? AND start >= ? AND start < ?",
            arguments: [userID, bounds[0].start, bounds[bounds.count - 1].stop])
        let stops = Dictionary(bounds.map { ($0.start, $0.stop) }, uniquingKeysWith: { a, _ in a })
        while let row = try cachedRows.next() {
            let start: Int64 = row[0], stop: Int64 = row[1]
            guard stops[start] == stop else { continue }
            cached[start] = (row[2], row[3], row[4])
        }
        var known: [Int: DayTotals] = [:]
        var stale: [(day: Int, signature: (Int, Int64))] = []
        for (day, signature) in signatures.sorted(by: { $0.key < $1.key }) {
            if let entry = cached[bounds[day].start], entry.readings == signature.0, entry.rowidSum == signature.1,
               let totals = DayTotals(cacheText: entry.totals) {
                known[day] = totals
            } else {
                stale.append((day, signature))
            }
        }
        return (known, stale)
    }

    /// The sums of the given days from their readings, by position in `bounds`. One query: the days are
    /// bounds joined against the user-and-time index, so SQLite walks each day's readings once.
    private static func summedDayTotals(userID: String, bounds: [(start: Int64, stop: Int64)], in db: Database) throws -> [Int: DayTotals] {
        let columns = dayTotalColumns
        let select = columns.enumerated().map { i, column in "total(\(column)) AS s\(i), count(\(column)) AS c\(i)" }
            .joined(separator: ", ")
        let rows = try Row.fetchCursor(
            db,
            sql: boundsCTE + """
                SELECT bounds.i AS i, \(select)
                FROM bounds JOIN messages AS m ON m.uid = ? AND m.ts >= bounds.start AND m.ts < bounds.stop
                GROUP BY bounds.i
                """,
            arguments: [boundsJSON(bounds), StoredID(userID)])
        var result: [Int: DayTotals] = [:]
        while let row = try rows.next() {
            var totals = DayTotals()
            for i in columns.indices {
                totals.set(slot: i, SumCount(sum: row[1 + 2 * i], count: row[2 + 2 * i]))
            }
            result[row[0]] = totals
        }
        return result
    }

    /// Drops every kept per-day sum (the benchmark's cold start).
    public func forgetDayTotals() async throws {
        try await write { db in try db.execute(sql: "DELETE FROM day_totals_cache") }
    }
}
