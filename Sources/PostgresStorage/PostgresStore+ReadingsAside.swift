import Foundation
import HealthCore
import HealthModel
import PostgresNIO

/// `LocalStore+ReadingsAside` on PostgreSQL.
extension PostgresStore {
    public func measurementCandidates(userID: String, fields: [String], from: Int64, to: Int64, otherThan: ReadingPath?) async throws
        -> [MeasurementCandidate] {
        guard !fields.isEmpty else { return [] }
        // A field kept in a number column (the weight) is found by it, through its index; others by the JSON.
        let columns = fields.compactMap { ReadingNumbers.columnOfField[$0] }
        let inJSON = fields.filter { ReadingNumbers.columnOfField[$0] == nil }
        let byColumn = columns.isEmpty ? "false" : columns.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
        return try await read { db in
            let rows = try await db.all("""
                SELECT mid, ts, data, via, NULL::bytea AS counted_mid FROM messages
                WHERE uid = \(ByteaID(userID)) AND ts >= \(from) AND ts <= \(to)
                    AND (\(unescaped: byColumn) OR (cardinality(\(inJSON)::text[]) > 0 AND data::jsonb ?| \(inJSON)))
                    AND (\(otherThan?.rawValue)::text IS NULL OR (via IS NOT NULL AND via <> \(otherThan?.rawValue)))
                UNION ALL
                SELECT mid, ts, data, via, counted_mid FROM readings_aside
                WHERE uid = \(ByteaID(userID)) AND ts >= \(from) AND ts <= \(to)
                    AND (\(unescaped: byColumn) OR (cardinality(\(inJSON)::text[]) > 0 AND data::jsonb ?| \(inJSON)))
                    AND (\(otherThan?.rawValue)::text IS NULL OR (via IS NOT NULL AND via <> \(otherThan?.rawValue)))
                """)
            let decoder = JSONDecoder()
            return try rows.map { row in
                let json = try row.value("data", String.self)
                return MeasurementCandidate(mid: try row.value("mid", ByteaID.self).id, ts: try row.value("ts"),
                                            data: try decoder.decode([String: FieldValue].self, from: Data(json.utf8)),
                                            path: try row.value("via", String?.self).flatMap(ReadingPath.init(rawValue:)),
                                            countedMid: try row.value("counted_mid", ByteaID?.self)?.id)
            }
        }
    }

    public func exchangeAside(_ exchange: AsideExchange, userID: String) async throws {
        guard !exchange.isEmpty else { return }
        try await write { db in
            let user = ByteaID(userID)
            for mid in exchange.drop {
                try await db.run("DELETE FROM readings_aside WHERE mid = \(ByteaID(mid)) AND uid = \(user)")
            }
            for mid in exchange.takeBack {
                // A reading its source sent again while it was aside is counted already: that one stands.
                try await db.run("""
                    INSERT INTO messages (\(unescaped: AsideReading.movedColumns))
                    SELECT \(unescaped: AsideReading.movedColumns) FROM readings_aside WHERE mid = \(ByteaID(mid)) AND uid = \(user)
                    ON CONFLICT (mid) DO NOTHING
                    """)
                try await db.run("DELETE FROM readings_aside WHERE mid = \(ByteaID(mid)) AND uid = \(user)")
            }
            for mark in exchange.setAside {
                guard try await db.count("""
                    UPDATE readings_aside SET counted_mid = \(ByteaID(mark.countedMid)) WHERE mid = \(ByteaID(mark.mid)) AND uid = \(user)
                    RETURNING 1
                    """) == 0 else { continue }
                guard try await db.count("""
                    INSERT INTO readings_aside (\(unescaped: AsideReading.movedColumns), counted_mid)
                    SELECT \(unescaped: AsideReading.movedColumns), \(ByteaID(mark.countedMid)) FROM messages
                    WHERE mid = \(ByteaID(mark.mid)) AND uid = \(user) AND via IS NOT NULL
                    RETURNING 1
                    """) > 0 else { continue }
                try await db.run("DELETE FROM messages WHERE mid = \(ByteaID(mark.mid))")
            }
        }
    }
}
