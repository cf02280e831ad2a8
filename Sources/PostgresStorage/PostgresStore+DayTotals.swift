import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// The insights' per-day sums on PostgreSQL, kept in `day_totals_cache` as on SQLite: a day is summed once
/// and read back while its signature holds. The signature is the day's reading count and the sum of their
/// `seq`: a serial that is never handed out twice, and that an edited reading takes anew, so any insert,
/// edit or delete in a day changes it, whichever process or server wrote. Summing a year of a watch's
/// readings from their JSON took 1.6–3 s on a 24-year store; reading the kept sums takes an index-only scan.
extension PostgresStore {
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
        for (position, entry) in stale.enumerated() { result[entry.day] = fresh[position] ?? DayTotals() }
        // Keeping the sums is an optimisation: a store that cannot write now still answers.
        let keptStarts = stale.map { dayStarts[$0.day] }, keptStops = stale.map { stops[$0.day] }
        let readings = stale.map(\.readings), seqSums = stale.map(\.seqSum)
        let texts = stale.indices.map { (fresh[$0] ?? DayTotals()).cacheText }
        _ = try? await write { db in
            try await db.run("""
                INSERT INTO day_totals_cache (uid, start, stop, readings, rowid_sum, totals)
                SELECT \(userID), k.start, k.stop, k.readings, k.seq_sum, k.totals
                FROM unnest(\(keptStarts), \(keptStops), \(readings), \(seqSums), \(texts)) AS k(start, stop, readings, seq_sum, totals)
                ON CONFLICT (uid, start, stop) DO UPDATE
                SET readings = excluded.readings, rowid_sum = excluded.rowid_sum, totals = excluded.totals
                """)
        }
        return result
    }

    public func forgetDayTotals() async throws {
        try await write { db in try await db.run("DELETE FROM day_totals_cache") }
    }

    /// The days whose kept sums still match their readings, and the others with their signatures. A day
    /// without readings is in neither: its sums are empty.
    private static func keptDayTotals(userID: String, starts: [Int64], stops: [Int64], in db: PGConnection) async throws
        -> (known: [Int: DayTotals], stale: [(day: Int, readings: Int64, seqSum: Int64)]) {
        // The modulo keeps the sum a bigint however many readings a day holds; a signature only has to change.
        let rows = try await db.all("""
            SELECT b.i - 1 AS i, count(*) AS readings, (sum(m.seq) % 9223372036854775807)::bigint AS seq_sum,
                   c.readings AS kept_readings, c.rowid_sum AS kept_sum, c.totals AS kept_totals
            FROM unnest(\(starts), \(stops)) WITH ORDINALITY AS b(start, stop, i)
            JOIN messages AS m ON m.uid = \(ByteaID(userID)) AND m.ts >= b.start AND m.ts < b.stop
            LEFT JOIN day_totals_cache AS c ON c.uid = \(userID) AND c.start = b.start AND c.stop = b.stop
            GROUP BY b.i, c.readings, c.rowid_sum, c.totals
            ORDER BY b.i
            """)
        var known: [Int: DayTotals] = [:]
        var stale: [(day: Int, readings: Int64, seqSum: Int64)] = []
        for row in rows {
            let day = try row.value("i", Int.self), readings = try row.value("readings", Int64.self)
            let seqSum = try row.value("seq_sum", Int64.self)
            if try row.value("kept_readings", Int64?.self) == readings, try row.value("kept_sum", Int64?.self) == seqSum,
               let text = try row.value("kept_totals", String?.self), let totals = DayTotals(cacheText: text) {
                known[day] = totals
            } else {
                stale.append((day, readings, seqSum))
            }
        }
        return (known, stale)
    }

    /// The sums of the given days, computed in one query, by position in `starts`.
    private static func summedDayTotals(userID: String, starts: [Int64], stops: [Int64], in db: PGConnection) async throws
        -> [Int: DayTotals] {
        // One expression per slot of `DayTotals` (`ReadingKind.daySlots`): a kept column, else the JSON's number.
        let columns = ReadingKind.daySlots.map { kind in
            ReadingNumbers.columnOfField[kind.field].map { "m.\($0)" }
                ?? "CASE WHEN jsonb_typeof(m.data::jsonb -> '\(kind.field)') = 'number' THEN (m.data::jsonb ->> '\(kind.field)')::double precision END"
        }
        let select = columns.enumerated().map { i, column in "coalesce(\(Self.clampedSum(column)), 0) AS s\(i), count(\(column)) AS c\(i)" }
            .joined(separator: ", ")
        let rows = try await db.all("""
            SELECT b.i - 1 AS i, \(unescaped: select)
            FROM unnest(\(starts), \(stops)) WITH ORDINALITY AS b(start, stop, i)
            JOIN messages AS m ON m.uid = \(ByteaID(userID)) AND m.ts >= b.start AND m.ts < b.stop
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
