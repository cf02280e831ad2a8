import Foundation
import GRDB
import HealthCore
import HealthModel

/// Readings a person corrects: changing one, deleting it, and listing them all (one by id, ids by their start
/// and the counts are written once: `ReadingStore+Statements`).
extension LocalStore {
    /// Deletes one of the user's readings and returns it as it was. The insights' kept sums of its day are
    /// dropped in the same transaction (see `forgetDayTotals(coveringTs:)`).
    @discardableResult
    public func deleteReading(id mid: String, userID: String) async throws -> Message {
        try await write { db in
            let reading = try SQLiteSession(db: db).ownedReading(mid, userID: userID)
            try db.execute(sql: "DELETE FROM messages WHERE mid = ?", arguments: [StoredID(mid)])
            try Self.forgetDayTotals(userID: userID, coveringTs: reading.ts, in: db)
            return reading
        }
    }

    /// Changes one of the user's readings (its time, some of its fields, or both) and returns it as stored.
    /// The changed reading goes through the checks of a new one (`checkTimestamp`, `ReadingRules.accepted`
    /// against its device's manifest); nothing is written when one fails. It keeps its id, device and
    /// received time.
    @discardableResult
    public func editReading(id mid: String, userID: String, change: ReadingChange, at now: Date) async throws -> Message {
        try change.check(now: now)
        return try await write { db in
            let old = try SQLiteSession(db: db).ownedReading(mid, userID: userID)
            let edited = try Self.readingTarget(deviceID: old.sdid, ownedBy: userID, in: db).edited(old, by: change)
            let numbers = ReadingNumbers(edited.data)
            try db.execute(sql: """
                UPDATE messages SET ts = ?, data = ?, mv = ?, weight = ?, active_energy = ?, calories = ?, basal_energy = ?
                WHERE mid = ?
                """, arguments: [edited.ts, try StoreRules.encode(edited.data), edited.mv,
                                 numbers.weight, numbers.activeEnergy, numbers.calories, numbers.basalEnergy, StoredID(mid)])
            // An update keeps the rowid and the count, which is all a kept day's signature looks at.
            try Self.forgetDayTotals(userID: userID, coveringTs: old.ts, in: db)
            try Self.forgetDayTotals(userID: userID, coveringTs: edited.ts, in: db)
            return edited
        }
    }

    /// The user's readings over all their devices, in time order (then by id), as `query` asks.
    public func readings(_ query: ReadingsQuery, userID: String) async throws -> [Message] {
        try await foldReadings(query, userID: userID, into: [Message]()) { messages, message in messages.append(message) }
    }

    /// Each reading decoded from its row and handed on, inside one read transaction (one snapshot).
    public func foldReadings<Result: Sendable>(_ query: ReadingsQuery, userID: String, into initial: Result,
                                               _ add: @escaping @Sendable (inout Result, Message) throws -> Void) async throws -> Result {
        if let limit = query.limit, limit < 1 { throw HealthError.invalidValue("limit \(limit) is not a positive number") }
        if query.from >= query.to { return initial }
        return try await read { db in
            guard let presence = try Self.presenceFilter(query.field) else { return initial }
            let direction = query.order == .desc ? "DESC" : "ASC"
            var sql = "SELECT * FROM messages WHERE uid = ? AND ts >= ? AND ts < ? \(presence.sql) ORDER BY ts \(direction), mid \(direction)"
            var arguments: StatementArguments = [StoredID(userID), query.from, query.to]
            arguments += presence.arguments
            if let limit = query.limit {
                sql += " LIMIT ?"
                arguments += [limit]
            }
            let decoder = JSONDecoder()
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            var result = initial
            while let row = try rows.next() { try add(&result, try Message(row: row, decoder: decoder)) }
            return result
        }
    }

    // MARK: Inside a transaction

    /// Drops the user's kept per-day sums of every day (in any time zone) that holds the instant `ts`.
    /// Needed after a change or a deletion: a day's signature (count and rowid sum) does not change when a
    /// reading is edited in place, nor when a deleted reading's rowid is handed to the next one added.
    static func forgetDayTotals(userID: String, coveringTs ts: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM day_totals_cache WHERE uid = ? AND start <= ? AND stop > ?", arguments: [userID, ts, ts])
    }
}
