import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Readings a person corrects, on PostgreSQL: `LocalStore+Corrections` with the same checks and errors.
extension PostgresStore {
    @discardableResult
    public func deleteReading(id mid: String, userID: String) async throws -> Message {
        try await write { db in
            let reading = try Message.owned(try await db.rows(ReadingStatements.reading(mid)).first, mid: mid, by: userID)
            try await db.run("DELETE FROM messages WHERE mid = \(ByteaID(mid))")
            return reading
        }
    }

    @discardableResult
    /// The edited reading takes a new `seq`, which signs its day's kept sums anew (`dayTotals`).
    public func editReading(id mid: String, userID: String, change: ReadingChange, at now: Date) async throws -> Message {
        try change.check(now: now)
        return try await write { db in
            let old = try Message.owned(try await db.rows(ReadingStatements.reading(mid)).first, mid: mid, by: userID)
            let edited = try await Self.readingTarget(deviceID: old.sdid, ownedBy: userID, in: db).edited(old, by: change)
            let numbers = ReadingNumbers(edited.data)
            try await db.run("""
                UPDATE messages SET ts = \(edited.ts), data = \(try StoreRules.encode(edited.data)), mv = \(edited.mv),
                    seq = nextval(pg_get_serial_sequence('messages', 'seq')),
                    weight = \(numbers.weight), active_energy = \(numbers.activeEnergy), calories = \(numbers.calories),
                    basal_energy = \(numbers.basalEnergy)
                WHERE mid = \(ByteaID(mid))
                """)
            return edited
        }
    }

    public func readings(_ query: ReadingsQuery, userID: String) async throws -> [Message] {
        try await foldReadings(query, userID: userID, into: [Message]()) { messages, message in messages.append(message) }
    }

    /// Each reading handed on as its row arrives: the rows are streamed, never collected (one statement, one snapshot).
    public func foldReadings<Result: Sendable>(_ query: ReadingsQuery, userID: String, into initial: Result,
                                               _ add: @escaping @Sendable (inout Result, Message) throws -> Void) async throws -> Result {
        if let limit = query.limit, limit < 1 { throw HealthError.invalidValue("limit \(limit) is not a positive number") }
        if query.from >= query.to { return initial }
        return try await read { db in
            guard let presence = Self.presenceFilter(query.field) else { return initial }
            var bindings = PostgresBindings()
            bindings.append(ByteaID(userID))
            bindings.append(query.from)
            bindings.append(query.to)
            var sql = "SELECT * FROM messages WHERE uid = $1 AND ts >= $2 AND ts < $3"
            if let field = presence {
                sql += Self.carrying(field, bindings: &bindings)
            }
            // Ids are bytes (`ByteaID`), compared as SQLite compares them.
            sql += query.order == .desc ? " ORDER BY ts DESC, mid DESC" : " ORDER BY ts, mid"
            if let limit = query.limit {
                bindings.append(limit)
                sql += " LIMIT $\(bindings.count)"
            }
            var result = initial
            for try await row in try await db.connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: db.logger) {
                try add(&result, try Self.message(row: row.makeRandomAccess()))
            }
            return result
        }
    }
}
