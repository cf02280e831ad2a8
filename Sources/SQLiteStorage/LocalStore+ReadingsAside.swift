import Foundation
import GRDB
import HealthCore
import HealthModel

/// Readings kept aside as the same measurement as a counted one, and each person's source order
/// (`ReadingsAsideStore`). A reading moves between `messages` and `readings_aside` whole, numbers and
/// way included, so taking it back counts it exactly as it was.
extension LocalStore {
    public func measurementCandidates(userID: String, fields: [String], from: Int64, to: Int64, otherThan: ReadingPath?) async throws
        -> [MeasurementCandidate] {
        guard !fields.isEmpty else { return [] }
        // A field kept in a number column (the weight) is found by it, through its index; others by the JSON.
        var holds = "(" + fields.map { ReadingNumbers.columnOfField[$0].map { "\($0) IS NOT NULL" } ?? "json_type(data, ?) IS NOT NULL" }
            .joined(separator: " OR ") + ")"
        let paths = fields.filter { ReadingNumbers.columnOfField[$0] == nil }.map { "$.\($0)" }
        var each: StatementArguments = [StoredID(userID), from, to]
        if let otherThan {
            // The way first: it rules out an export's rows without reading their JSON.
            holds = "via IS NOT NULL AND via != ? AND " + holds
            each += [otherThan.rawValue]
        }
        each += StatementArguments(paths)
        var arguments = each
        arguments += each
        return try await read { [arguments, holds] db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT mid, ts, data, via, NULL AS counted_mid FROM messages WHERE uid = ? AND ts >= ? AND ts <= ? AND \(holds)
                UNION ALL
                SELECT mid, ts, data, via, counted_mid FROM readings_aside WHERE uid = ? AND ts >= ? AND ts <= ? AND \(holds)
                """, arguments: arguments)
            let decoder = JSONDecoder()
            return try rows.map { row in
                let json: String = row["data"]
                let via: String? = row["via"]
                let counted: StoredID? = row["counted_mid"]
                return MeasurementCandidate(mid: row.storedID("mid"), ts: row["ts"],
                                            data: try decoder.decode([String: FieldValue].self, from: Data(json.utf8)),
                                            path: via.flatMap(ReadingPath.init(rawValue:)), countedMid: counted?.id)
            }
        }
    }

    public func exchangeAside(_ exchange: AsideExchange, userID: String) async throws {
        guard !exchange.isEmpty else { return }
        try await write { db in
            let user = StoredID(userID)
            for mid in exchange.drop {
                try db.execute(sql: "DELETE FROM readings_aside WHERE mid = ? AND uid = ?", arguments: [StoredID(mid), user])
            }
            for mid in exchange.takeBack {
                guard let ts = try Int64.fetchOne(db, sql: "SELECT ts FROM readings_aside WHERE mid = ? AND uid = ?",
                                                  arguments: [StoredID(mid), user]) else { continue }
                // A reading its source sent again while it was aside is counted already: that one stands.
                try db.execute(sql: """
                    INSERT INTO messages (\(AsideReading.movedColumns)) SELECT \(AsideReading.movedColumns) FROM readings_aside WHERE mid = ?
                    ON CONFLICT (mid) DO NOTHING
                    """, arguments: [StoredID(mid)])
                try db.execute(sql: "DELETE FROM readings_aside WHERE mid = ?", arguments: [StoredID(mid)])
                try Self.forgetDayTotals(userID: userID, coveringTs: ts, in: db)
            }
            for mark in exchange.setAside {
                try db.execute(sql: "UPDATE readings_aside SET counted_mid = ? WHERE mid = ? AND uid = ?",
                               arguments: [StoredID(mark.countedMid), StoredID(mark.mid), user])
                guard db.changesCount == 0,
                      let ts = try Int64.fetchOne(db, sql: "SELECT ts FROM messages WHERE mid = ? AND uid = ? AND via IS NOT NULL",
                                                  arguments: [StoredID(mark.mid), user]) else { continue }
                try db.execute(sql: """
                    INSERT INTO readings_aside (\(AsideReading.movedColumns), counted_mid) SELECT \(AsideReading.movedColumns), ? FROM messages WHERE mid = ?
                    """, arguments: [StoredID(mark.countedMid), StoredID(mark.mid)])
                try db.execute(sql: "DELETE FROM messages WHERE mid = ?", arguments: [StoredID(mark.mid)])
                try Self.forgetDayTotals(userID: userID, coveringTs: ts, in: db)
            }
        }
    }
}
