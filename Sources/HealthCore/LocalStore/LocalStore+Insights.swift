import Foundation
import GRDB

extension LocalStore {
    /// What each day sums, in the order of `DayTotals.set(column:_:)`: the columns the store keeps, then
    /// the fields insights read from the reading's JSON.
    private static let dayTotalColumns = ["m.weight", "m.active_energy", "m.basal_energy", "m.calories"]
        + [Field.fatRatio, Field.fatFreeMass, Field.steps, Field.restingHeartRate, Field.rmssd,
           Field.heartRateVariabilitySDNN, Field.stress].map { "json_extract(m.data, '$.\($0)')" }

    /// A user's readings summed per local day, for the days starting at `dayStarts` (ms, ascending; each
    /// day ends where the next starts, the last at `end`): what `DailyAttributes` is built from. One query:
    /// the days are bounds joined against the user-and-time index, so SQLite walks each day's readings once.
    public func dayTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DayTotals] {
        guard !dayStarts.isEmpty else { return [:] }
        let bounds = zip(dayStarts, dayStarts.dropFirst() + [end]).map { "[\($0),\($1)]" }.joined(separator: ",")
        let columns = Self.dayTotalColumns
        let select = columns.enumerated().map { i, column in "total(\(column)) AS s\(i), count(\(column)) AS c\(i)" }
            .joined(separator: ", ")
        return try await read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    WITH bounds AS (
                        SELECT CAST(key AS INTEGER) AS i, json_extract(value, '$[0]') AS start, json_extract(value, '$[1]') AS stop
                        FROM json_each(?)
                    )
                    SELECT bounds.i AS i, \(select)
                    FROM bounds JOIN messages AS m ON m.uid = ? AND m.ts >= bounds.start AND m.ts < bounds.stop
                    GROUP BY bounds.i
                    """,
                arguments: ["[\(bounds)]", userID])
            var result: [Int: DayTotals] = [:]
            while let row = try rows.next() {
                var totals = DayTotals()
                for i in columns.indices {
                    totals.set(column: i, SumCount(sum: row[1 + 2 * i], count: row[2 + 2 * i]))
                }
                result[row[0]] = totals
            }
            return result
        }
    }
}

extension LocalStore {
    /// How many readings a user has from `from` (ms) on, counted from the index alone (the benchmark's floor).
    public func countReadings(userID: String, from: Int64) async throws -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE uid = ? AND ts >= ?", arguments: [userID, from]) ?? 0
        }
    }
}
