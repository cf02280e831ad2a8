import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// The insights' per-day sums on PostgreSQL, kept in `day_totals_cache` as on SQLite: a day is summed once
/// and read back while its signature holds. The signature is the sum of the versions of the UTC days the
/// day overlaps (`reading_day_versions`, bumped by the triggers of every insert, edit and delete, whichever
/// process or server wrote), read before the day is summed: a write landing after that read makes the
/// kept sums stale at the next look, never the reverse. Checking is a look-up a day; summing a year of a
/// watch's readings from their JSON took 1.6–3 s on a 24-year store.
///
/// A run opened to read (`hmon snapshot --db`, `hmon insights --db`) keeps the sums it had to make too: they are
/// derived from the readings, not data, and on PostgreSQL keeping them takes no lock a writer waits for (on
/// SQLite it would take the file's one write lock). Keeping them moves no change token, since nothing anyone
/// sees changed. A database that may not be written (a role that may only read, a standby) refuses to keep
/// them, and such a run makes the stale days' sums each time, as a read-only run on SQLite does.
extension PostgresStore {
    /// What `day_totals_cache.readings` holds for sums signed by day versions: no count of readings is -1,
    /// so sums kept before version 24 (signed by count and `seq`) are summed again once.
    static let signedByDayVersions: Int64 = -1
    /// What a day without readings keeps: it is absent from the answer, as on SQLite, and not summed again.
    static let noReadings = ""

    public func dayTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DayTotals] {
        guard !dayStarts.isEmpty else { return [:] }
        let stops = Array(dayStarts.dropFirst()) + [end]
        let (known, stale) = try await read { db in
            try await Self.keptDayTotals(userID: userID, starts: dayStarts, stops: stops, in: db)
        }
        guard !stale.isEmpty else { return known }
        let fresh = try await read { db in
            try await Self.summedDayTotals(userID: userID, starts: stale.map { dayStarts[$0.day] },
                                           stops: stale.map { stops[$0.day] }, in: db)
        }
        var result = known
        for (position, entry) in stale.enumerated() { result[entry.day] = fresh[position] }
        // Keeping the sums is an optimisation: a store that cannot write now still answers.
        let keptStarts = stale.map { dayStarts[$0.day] }, keptStops = stale.map { stops[$0.day] }
        let readings = stale.map { _ in Self.signedByDayVersions }, signatures = stale.map(\.signature)
        let texts = stale.indices.map { fresh[$0]?.cacheText ?? Self.noReadings }
        _ = try? await keepDerived { db in
            // The user's row is locked first, as deleting the user locks it before its kept sums go, so the
            // two cannot deadlock (a write bumps the change token first for that; this one moves none).
            try await db.run("""
                WITH owner AS MATERIALIZED (SELECT id FROM users WHERE id = \(userID) FOR KEY SHARE)
                INSERT INTO day_totals_cache (uid, start, stop, readings, rowid_sum, totals)
                SELECT owner.id, k.start, k.stop, k.readings, k.signature, k.totals
                FROM owner CROSS JOIN unnest(\(keptStarts), \(keptStops), \(readings), \(signatures), \(texts))
                    AS k(start, stop, readings, signature, totals)
                ON CONFLICT (uid, start, stop) DO UPDATE
                SET readings = excluded.readings, rowid_sum = excluded.rowid_sum, totals = excluded.totals
                """)
        }
        return result
    }

    public func forgetDayTotals() async throws {
        try await write { db in try await db.run("DELETE FROM day_totals_cache") }
    }

    /// The days whose kept sums still match their day versions (a day without readings kept as such, and
    /// left out), and the others with their signatures.
    private static func keptDayTotals(userID: String, starts: [Int64], stops: [Int64], in db: PGConnection) async throws
        -> (known: [Int: DayTotals], stale: [(day: Int, signature: Int64)]) {
        // The modulo keeps the sum a bigint however often the days were written; a signature only has to change.
        let rows = try await db.all("""
            SELECT b.i - 1 AS i,
                   coalesce((SELECT sum(v.version) % 9223372036854775807 FROM reading_day_versions AS v
                             WHERE v.uid = \(ByteaID(userID)) AND v.day >= floor(b.start / 86400000.0)::bigint
                               AND v.day <= floor((b.stop - 1) / 86400000.0)::bigint), 0)::bigint AS signature,
                   c.readings AS kept_readings, c.rowid_sum AS kept_signature, c.totals AS kept_totals
            FROM unnest(\(starts), \(stops)) WITH ORDINALITY AS b(start, stop, i)
            LEFT JOIN day_totals_cache AS c ON c.uid = \(userID) AND c.start = b.start AND c.stop = b.stop
            ORDER BY b.i
            """)
        var known: [Int: DayTotals] = [:]
        var stale: [(day: Int, signature: Int64)] = []
        for row in rows {
            let day = try row.value("i", Int.self), signature = try row.value("signature", Int64.self)
            if try row.value("kept_readings", Int64?.self) == signedByDayVersions, try row.value("kept_signature", Int64?.self) == signature,
               let text = try row.value("kept_totals", String?.self), text == noReadings || DayTotals(cacheText: text) != nil {
                if text != noReadings { known[day] = DayTotals(cacheText: text) }
            } else {
                stale.append((day, signature))
            }
        }
        return (known, stale)
    }

    /// The sums of the given days, computed in one query, by position in `starts`.
    private static func summedDayTotals(userID: String, starts: [Int64], stops: [Int64], in db: PGConnection) async throws
        -> [Int: DayTotals] {
        // One value per slot of `DayTotals` (`ReadingKind.daySlots`): a kept column, else the JSON's number.
        // The JSON is parsed once a row (the fence, OFFSET 0, keeps the planner from copying the cast into
        // every slot's expression): written per slot, a row's text was parsed five times a slot, and a read-only
        // run, which cannot keep the sums, took 8–10 s on 200,000 readings.
        let fromJSON = ReadingKind.daySlots.indices.filter { ReadingNumbers.columnOfField[ReadingKind.daySlots[$0].field] == nil }
        let columns = ReadingKind.daySlots.enumerated().map { i, kind in
            ReadingNumbers.columnOfField[kind.field].map { "m.\($0)" } ?? "x.v\(i)"
        }
        let extracted = fromJSON.map { i in
            let field = ReadingKind.daySlots[i].field
            return "CASE WHEN jsonb_typeof(p.j -> '\(field)') = 'number' THEN (p.j ->> '\(field)')::double precision END AS v\(i)"
        }.joined(separator: ", ")
        let parsed = fromJSON.isEmpty ? "" : "CROSS JOIN LATERAL (SELECT \(extracted) FROM (SELECT m.data::jsonb AS j OFFSET 0) AS p) AS x"
        let select = columns.enumerated().map { i, column in "coalesce(\(Self.clampedSum(column)), 0) AS s\(i), count(\(column)) AS c\(i)" }
            .joined(separator: ", ")
        let rows = try await db.all("""
            SELECT b.i - 1 AS i, \(unescaped: select)
            FROM unnest(\(starts), \(stops)) WITH ORDINALITY AS b(start, stop, i)
            JOIN messages AS m ON m.uid = \(ByteaID(userID)) AND m.ts >= b.start AND m.ts < b.stop
            \(unescaped: parsed)
            GROUP BY b.i
            """)
        var result: [Int: DayTotals] = [:]
        for row in rows {
            var totals = DayTotals()
            for i in columns.indices {
                totals.set(slot: i, SumCount(sum: try row.value("s\(i)"), count: try row.value("c\(i)", Int.self)))
            }
            result[try row.value("i", Int.self)] = totals
        }
        return result
    }
}
