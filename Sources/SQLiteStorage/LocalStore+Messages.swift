import Foundation
import GRDB
import HealthCore
import HealthModel

/// Readings: adding them, and the questions the faces ask of them.
extension LocalStore {

    /// Adds a reading of one of the user's devices as `ReadingRules.accepted` stores it (checked against
    /// the device's manifest and the sane ranges, whole numbers in integer fields); returns its `mid`.
    /// Nothing is written when a check fails.
    ///
    /// - Parameter mid: a caller-chosen id (an importer's deterministic one); a new random id when nil.
    @discardableResult
    public func post(_ message: NewMessage, userID: String, mid: String?, at now: Date) async throws -> String {
        try await post(message, userID: userID, mid: mid, now: now, undoSession: nil).mid
    }

    /// `post`, with the add kept in `undoSession`'s undo journal in the same transaction when one is given.
    public func post(_ message: NewMessage, userID: String, mid: String?, at now: Date, undoSession: String?) async throws -> Message {
        let received = now.millisecondsSince1970
        let (mid, ts) = try StoreRules.postedRow(message, mid: mid, received: received)
        return try await write { db in
            let target = try Self.readingTarget(deviceID: message.sdid, ownedBy: userID, in: db)
            let data = try target.accepted(message.data)
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM messages WHERE mid = ?)"), arguments: [StoredID(mid)]) == true {
                throw StoreRules.readingExists(mid)
            }
            let record = try MessageRecord(mid: mid, sdid: target.device.id, sdtid: target.device.dtid, uid: userID, ts: ts, cts: received,
                                           mv: target.device.manifestVersion, fields: data)
            try record.insert(db)
            let stored = try target.storedReading(mid: mid, userID: userID, ts: ts, received: received, json: record.data)
            if let undoSession {
                try SQLiteSession(db: db).recordChange(UndoJournalEntry(kind: .add, reading: stored, madeAt: now), userID: userID,
                                                       session: undoSession, now: now)
            }
            return stored
        }
    }

    /// Adds many readings in one transaction, each checked and stored like `post`; when one fails nothing is
    /// written and the error names it ("reading 17: …"). With `mids`, a reading whose mid is already
    /// stored is skipped, so importing the same export twice adds nothing. Returns how many were added.
    @discardableResult
    public func postBatch(_ messages: [NewMessage], mids: [String]?, userID: String, at now: Date) async throws -> Int {
        let received = now.millisecondsSince1970
        let rows = try StoreRules.batchRows(messages, mids: mids, received: received)
        return try await write { db in
            var targets: [String: ReadingTarget] = [:]
            var added = 0
            for (index, row) in rows.enumerated() {
                do {
                    let target: ReadingTarget
                    if let known = targets[row.message.sdid] {
                        target = known
                    } else {
                        target = try Self.readingTarget(deviceID: row.message.sdid, ownedBy: userID, in: db)
                        targets[row.message.sdid] = target
                    }
                    let record = try MessageRecord(mid: row.mid, sdid: target.device.id, sdtid: target.device.dtid, uid: userID,
                                                   ts: row.ts, cts: received, mv: target.device.manifestVersion,
                                                   fields: try target.accepted(row.message.data))
                    if try record.insertUnlessStored(db) { added += 1 }
                } catch let error as HealthError {
                    throw StoreRules.inBatch(error, at: index)
                }
            }
            return added
        }
    }

    /// The last `count` readings of a user's device, newest first; only those carrying `field` when given.
    public func lastMessages(deviceID: String, userID: String, count: Int, field: String? = nil) async throws -> [Message] {
        try StoreRules.checkCount(count)
        return try await read { db in try Self.lastMessages(deviceID: deviceID, userID: userID, count: count, field: field, in: db) }
    }

    /// A page of a user's device's readings (or of all the user's readings, when the query names no
    /// device) in `[startDate, endDate]`. `next` is a cursor (the last reading's time and id), so pages
    /// stay right while readings are being added.
    public func messages(_ query: MessageQuery, userID: String) async throws -> MessagePage {
        try StoreRules.checkCount(query.count)
        if query.startDate > query.endDate {
            throw HealthError.invalidValue("the start date is after the end date: swap them")
        }
        let cursor = try query.offset.flatMap { $0.isEmpty ? nil : try PageCursor(text: $0) }
        return try await read { db in
            if let sdid = query.sdid { _ = try SQLiteSession(db: db).device(id: sdid, ownedBy: userID) }
            guard let presence = try Self.presenceFilter(query.fieldPresence) else { return MessagePage(messages: [], next: nil) }
            var sql = "SELECT * FROM messages WHERE \(query.sdid == nil ? "uid" : "sdid") = ? AND ts BETWEEN ? AND ? \(presence.sql)"
            var arguments: StatementArguments = [StoredID(query.sdid ?? userID), query.startDate, query.endDate]
            arguments += presence.arguments
            let descending = query.order == .desc
            if let cursor {
                sql += descending ? " AND (ts, mid) < (?, ?)" : " AND (ts, mid) > (?, ?)"
                arguments += [cursor.ts, StoredID(cursor.mid)]
            }
            sql += descending ? " ORDER BY ts DESC, mid DESC" : " ORDER BY ts, mid"
            sql += " LIMIT ?"
            arguments += [query.count + 1]
            let decoder = JSONDecoder()
            var messages = try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Message(row: $0, decoder: decoder) }
            var next: String?
            if messages.count > query.count {
                messages.removeLast()
                next = messages.last.map { PageCursor(ts: $0.ts, mid: $0.mid).text }
            }
            return MessagePage(messages: messages, next: next)
        }
    }

    // MARK: What the derived views read (from indexes, no JSON)

    /// Sums of a user's energy readings with `from <= ts < to` (ms).
    public func energyTotals(userID: String, from: Int64, to: Int64) async throws -> EnergyTotals {
        try await read { db in try Self.energyTotals(userID: userID, from: from, to: to, in: db) }
    }

    /// The latest weight (kg) among a user's readings before `before` (ms), from any of their devices.
    public func latestWeight(userID: String, before: Int64) async throws -> WeightReading? {
        try await read { db in try Self.latestWeight(userID: userID, before: before, in: db) }
    }

    /// The sum and count of a user's weights per local day, for the days starting at `dayStarts`
    /// (ms, ascending; each day ends where the next starts, the last at `end`). Summed inside SQLite
    /// from the weights index, so a period with thousands of readings costs one query.
    public func dailyWeightTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DailyWeightTotal] {
        guard !dayStarts.isEmpty else { return [:] }
        let bounds = zip(dayStarts, dayStarts.dropFirst() + [end]).map { "[\($0),\($1)]" }.joined(separator: ",")
        return try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH bounds AS (
                        SELECT CAST(key AS INTEGER) AS i, json_extract(value, '$[0]') AS start, json_extract(value, '$[1]') AS stop
                        FROM json_each(?)
                    )
                    SELECT bounds.i AS i, total(m.weight) AS kg, count(m.weight) AS n
                    FROM bounds JOIN messages AS m
                        ON m.uid = ? AND m.ts >= bounds.start AND m.ts < bounds.stop AND m.weight IS NOT NULL
                    GROUP BY bounds.i
                    """,
                arguments: ["[\(bounds)]", StoredID(userID)])
            var totals: [Int: DailyWeightTotal] = [:]
            for row in rows { totals[row["i"]] = DailyWeightTotal(kg: row["kg"], readings: row["n"]) }
            return totals
        }
    }

    /// A user's weights with `from <= ts < to` (ms), oldest first, from all their devices.
    public func weightReadings(userID: String, from: Int64, to: Int64) async throws -> [WeightReading] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT ts, weight FROM messages WHERE uid = ? AND ts >= ? AND ts < ? AND weight IS NOT NULL ORDER BY ts",
                arguments: [StoredID(userID), from, to]
            ).map { WeightReading(date: Date(millisecondsSince1970: $0["ts"]), kg: $0["weight"]) }
        }
    }

    // MARK: Inside a transaction

    /// The user's device `deviceID` with what a write checks its readings against (`ReadingTarget`).
    static func readingTarget(deviceID: String, ownedBy userID: String, in db: Database) throws -> ReadingTarget {
        let device = try SQLiteSession(db: db).device(id: deviceID, ownedBy: userID)
        return ReadingTarget(device: device, manifest: try SQLiteSession(db: db).manifest(ofType: device.dtid),
                             typeName: try SQLiteSession(db: db).deviceType(id: device.dtid)?.name)
    }

    static func lastMessages(deviceID: String, userID: String, count: Int, field: String?, in db: Database) throws -> [Message] {
        _ = try SQLiteSession(db: db).device(id: deviceID, ownedBy: userID)
        guard let presence = try presenceFilter(field) else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT * FROM messages WHERE sdid = ? \(presence.sql) ORDER BY ts DESC, mid DESC LIMIT ?",
            arguments: [StoredID(deviceID)] + presence.arguments + [count])
        let decoder = JSONDecoder()
        return try rows.map { try Message(row: $0, decoder: decoder) }
    }

    static func energyTotals(userID: String, from: Int64, to: Int64, in db: Database) throws -> EnergyTotals {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT total(active_energy) AS active, total(calories) AS consumed,
                       total(basal_energy) AS basal, count(basal_energy) AS basal_count
                FROM messages WHERE uid = ? AND ts >= ? AND ts < ?
                """,
            arguments: [StoredID(userID), from, to])
        guard let row else { return EnergyTotals(active: 0, consumed: 0, recordedBasal: nil) }
        let basalCount: Int = row["basal_count"]
        return EnergyTotals(active: row["active"], consumed: row["consumed"],
                            recordedBasal: basalCount > 0 ? row["basal"] : nil)
    }

    static func latestWeight(userID: String, before: Int64, in db: Database) throws -> WeightReading? {
        try Row.fetchOne(
            db,
            sql: "SELECT ts, weight FROM messages WHERE uid = ? AND ts < ? AND weight IS NOT NULL ORDER BY ts DESC LIMIT 1",
            arguments: [StoredID(userID), before]
        ).map { WeightReading(date: Date(millisecondsSince1970: $0["ts"]), kg: $0["weight"]) }
    }

    // MARK: Helpers

    /// The SQL that keeps only readings carrying `field`; nil when no reading can carry it.
    static func presenceFilter(_ field: String?) throws -> (sql: String, arguments: StatementArguments)? {
        guard let field, !field.isEmpty else { return ("", []) }
        guard !field.contains("\""), !field.contains("\\") else { return nil }
        return ("AND json_type(data, ?) IS NOT NULL", ["$.\"\(field)\""])
    }
}

extension Message {
    init(row: Row, decoder: JSONDecoder) throws {
        let json: String = row["data"]
        let data = try decoder.decode([String: FieldValue].self, from: Data(json.utf8))
        self.init(mid: row.storedID("mid"), sdid: row.storedID("sdid"), sdtid: row.storedID("sdtid"), uid: row.storedID("uid"),
                  ts: row["ts"], cts: row["cts"],
                  mv: row["mv"], data: data)
    }
}
