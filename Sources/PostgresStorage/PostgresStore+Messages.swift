import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Readings, the screens' reads and the insights' per-day sums: `LocalStore+Messages`, `+Screens`,
/// `+Insights` and `+ContractJSON` on PostgreSQL.
extension PostgresStore {
    public func post(_ message: NewMessage, userID: String, mid: String?, at now: Date) async throws -> String {
        try await post(message, userID: userID, mid: mid, now: now, undoSession: nil).mid
    }

    public func post(_ message: NewMessage, userID: String, mid: String?, at now: Date, undoSession: String?) async throws -> Message {
        let received = now.millisecondsSince1970
        let (mid, ts) = try StoreRules.postedRow(message, mid: mid, received: received)
        return try await write { db in
            let target = try await Self.readingTarget(deviceID: message.sdid, ownedBy: userID, in: db)
            let data = try target.accepted(message.data)
            if try await db.exists("SELECT 1 FROM messages WHERE mid = \(ByteaID(mid))") {
                throw StoreRules.readingExists(mid)
            }
            try await Self.insertReading(mid: mid, device: target.device, userID: userID, ts: ts, received: received, fields: data, in: db)
            let stored = try target.storedReading(mid: mid, userID: userID, ts: ts, received: received, json: try StoreRules.encode(data))
            if let undoSession {
                let entry = UndoJournalEntry(kind: .add, reading: stored, madeAt: now)
                try await Self.runOffThePool({ session in try session.recordChange(entry, userID: userID, session: undoSession, now: now) },
                                             on: db)
            }
            return stored
        }
    }

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
                        target = try await Self.readingTarget(deviceID: row.message.sdid, ownedBy: userID, in: db)
                        targets[row.message.sdid] = target
                    }
                    if try await Self.insertReading(mid: row.mid, device: target.device, userID: userID, ts: row.ts, received: received,
                                                    fields: try target.accepted(row.message.data), unlessStored: true, in: db) {
                        added += 1
                    }
                } catch let error as HealthError {
                    throw StoreRules.inBatch(error, at: index)
                }
            }
            return added
        }
    }

    public func lastMessages(deviceID: String, userID: String, count: Int, field: String?) async throws -> [Message] {
        try StoreRules.checkCount(count)
        return try await read { db in
            try await Self.lastMessages(deviceID: deviceID, userID: userID, count: count, field: field, in: db)
        }
    }

    /// The server's hot call: the ownership check and the rows in one statement (one round trip), the
    /// device's row joined to its last readings; no device row means an unknown device.
    public func lastMessagesJSON(deviceID: String, userID: String, count: Int, field: String?) async throws -> [StoredMessageJSON] {
        try StoreRules.checkCount(count)
        guard let presence = Self.presenceFilter(field) else {
            _ = try await device(id: deviceID, ownedBy: userID)
            return []
        }
        let rows = try await read { db in
            try await db.all("""
                SELECT d.uid AS owner, m.mid, m.sdid, m.sdtid, m.uid, m.ts, m.cts, m.mv, m.data
                FROM devices AS d LEFT JOIN LATERAL (
                    SELECT * FROM messages WHERE sdid = d.key AND (\(presence)::text IS NULL OR data::jsonb ? \(presence ?? ""))
                    ORDER BY ts DESC, mid DESC LIMIT \(count)
                ) AS m ON true
                WHERE d.id = \(deviceID)
                """)
        }
        guard let first = rows.first else { throw HealthError.unknownDevice(deviceID) }
        guard try first.value("owner", String.self) == userID else { throw HealthError.notYourDevice(deviceID) }
        return try rows.compactMap { row in
            guard let mid = try row.value("mid", ByteaID?.self) else { return nil }
            return StoredMessageJSON(mid: mid.id, sdid: try row.value("sdid", ByteaID.self).id, sdtid: try row.value("sdtid", ByteaID.self).id,
                                     uid: try row.value("uid", ByteaID.self).id, ts: try row.value("ts"), cts: try row.value("cts"),
                                     mv: try row.value("mv"), dataJSON: try row.value("data"))
        }
    }

    public func messages(_ query: MessageQuery, userID: String) async throws -> MessagePage {
        try StoreRules.checkCount(query.count)
        if query.startDate > query.endDate {
            throw HealthError.invalidValue("the start date is after the end date: swap them")
        }
        let cursor = try query.offset.flatMap { $0.isEmpty ? nil : try PageCursor(text: $0) }
        return try await snapshot { db in
            if let sdid = query.sdid { _ = try await db.device(id: sdid, ownedBy: userID) }
            guard let presence = Self.presenceFilter(query.fieldPresence) else { return MessagePage(messages: [], next: nil) }
            var bindings = PostgresBindings()
            bindings.append(ByteaID(query.sdid ?? userID))
            bindings.append(query.startDate)
            bindings.append(query.endDate)
            var sql = "SELECT * FROM messages WHERE \(query.sdid == nil ? "uid" : "sdid") = $1 AND ts BETWEEN $2 AND $3"
            if let field = presence {
                sql += Self.carrying(field, bindings: &bindings)
            }
            let descending = query.order == .desc
            if let cursor {
                bindings.append(cursor.ts)
                bindings.append(ByteaID(cursor.mid))
                let n = bindings.count
                sql += descending ? " AND (ts, mid) < ($\(n - 1), $\(n))" : " AND (ts, mid) > ($\(n - 1), $\(n))"
            }
            // Ids are bytes (`ByteaID`), compared as SQLite compares them.
            sql += descending ? " ORDER BY ts DESC, mid DESC" : " ORDER BY ts, mid"
            bindings.append(query.count + 1)
            sql += " LIMIT $\(bindings.count)"
            var messages = try await db.all(PostgresQuery(unsafeSQL: sql, binds: bindings)).map(Self.message(row:))
            var next: String?
            if messages.count > query.count {
                messages.removeLast()
                next = messages.last.map { PageCursor(ts: $0.ts, mid: $0.mid).text }
            }
            return MessagePage(messages: messages, next: next)
        }
    }

    public func energyTotals(userID: String, from: Int64, to: Int64) async throws -> EnergyTotals {
        try await read { db in try await Self.energyTotals(userID: userID, from: from, to: to, in: db) }
    }

    public func latestWeight(userID: String, before: Int64) async throws -> WeightReading? {
        try await read { db in try await Self.latestWeight(userID: userID, before: before, in: db) }
    }

    public func dailyWeightTotals(userID: String, dayStarts: [Int64], end: Int64) async throws -> [Int: DailyWeightTotal] {
        guard !dayStarts.isEmpty else { return [:] }
        let stops = Array(dayStarts.dropFirst()) + [end]
        return try await read { db in
            let rows = try await db.all("""
                SELECT b.i - 1 AS i, coalesce(\(unescaped: Self.clampedSum("m.weight")), 0) AS kg, count(m.weight) AS n
                FROM unnest(\(dayStarts), \(stops)) WITH ORDINALITY AS b(start, stop, i)
                JOIN messages AS m ON m.uid = \(ByteaID(userID)) AND m.ts >= b.start AND m.ts < b.stop AND m.weight IS NOT NULL
                GROUP BY b.i
                """)
            var totals: [Int: DailyWeightTotal] = [:]
            for row in rows {
                totals[try row.value("i", Int.self)] = DailyWeightTotal(kg: try row.value("kg"), readings: try row.value("n", Int.self))
            }
            return totals
        }
    }

    public func weightReadings(userID: String, from: Int64, to: Int64) async throws -> [WeightReading] {
        try await read { db in
            try await db.all("""
                SELECT ts, weight FROM messages WHERE uid = \(ByteaID(userID)) AND ts >= \(from) AND ts < \(to) AND weight IS NOT NULL ORDER BY ts
                """).map { WeightReading(date: Date(millisecondsSince1970: try $0.value("ts")), kg: try $0.value("weight")) }
        }
    }

    // MARK: The screens

    public func devicesOverview(userID: String) async throws -> DevicesOverview? {
        try await snapshot { db in
            guard let user = try await db.rows(AccountStatements.user(id: userID)).first.map(User.init(row:)) else { return nil }
            let devices = try await db.devices(userID: userID)
            let types = try await db.deviceTypes()
            // The manifests and each device's latest reading in a query each, not two round trips per type
            // and per device: the devices screen is the one a dashboard opens on.
            let typeIDs = Array(Set(devices.map(\.dtid))).sorted()
            if let unknown = typeIDs.first(where: { id in !types.contains { $0.id == id } }) { throw HealthError.unknownDeviceType(unknown) }
            let manifests = try await Self.manifests(ofTypes: typeIDs, in: db)
            let latest = try await Self.latestReadings(of: devices.map { ($0.id, manifests[$0.dtid]?.latestReadingField) }, in: db)
            return DevicesOverview(user: user, devices: devices, deviceTypes: types, manifests: manifests, latestReadings: latest)
        }
    }

    public func energyInputs(userID: String, periods: [(from: Int64, to: Int64)]) async throws
        -> (profile: Profile, periods: [(totals: EnergyTotals, weight: WeightReading?)]) {
        let froms = periods.map(\.from), tos = periods.map(\.to)
        return try await snapshot { db in
            let profile = try Profile(row: try await db.rows(AccountStatements.profile(userID: userID)).first, userID: userID)
            guard !periods.isEmpty else { return (profile, []) }
            // Every period in one query, a row each (an aggregate over no readings is still a row): each was
            // two round trips, and the energy screen with its learned expenditure asks for 35 days, the
            // overview for 30.
            let rows = try await db.all("""
                SELECT b.i - 1 AS i, e.active, e.consumed, e.basal, e.basal_count, w.ts AS weight_ts, w.weight
                FROM unnest(\(froms), \(tos)) WITH ORDINALITY AS b(start, stop, i)
                CROSS JOIN LATERAL (
                    SELECT coalesce(\(unescaped: Self.clampedSum("active_energy")), 0) AS active,
                           coalesce(\(unescaped: Self.clampedSum("calories")), 0) AS consumed,
                           coalesce(\(unescaped: Self.clampedSum("basal_energy")), 0) AS basal, count(basal_energy) AS basal_count
                    FROM messages WHERE uid = \(ByteaID(userID)) AND ts >= b.start AND ts < b.stop) AS e
                LEFT JOIN LATERAL (
                    SELECT ts, weight FROM messages
                    WHERE uid = \(ByteaID(userID)) AND ts < b.stop AND weight IS NOT NULL ORDER BY ts DESC LIMIT 1) AS w ON true
                ORDER BY b.i
                """)
            var inputs: [(totals: EnergyTotals, weight: WeightReading?)] = []
            for row in rows {
                let basalCount = try row.value("basal_count", Int.self)
                let totals = EnergyTotals(active: try row.value("active"), consumed: try row.value("consumed"),
                                          recordedBasal: basalCount > 0 ? try row.value("basal", Double.self) : nil)
                let weight = try row.value("weight_ts", Int64?.self).map { ts in
                    WeightReading(date: Date(millisecondsSince1970: ts), kg: try row.value("weight", Double.self))
                }
                inputs.append((totals, weight))
            }
            return (profile, inputs)
        }
    }

    /// `sum(expression)` with each value held within ±1e15. PostgreSQL refuses a double-precision sum that
    /// overflows ("value out of range"), and two readings of 1.7e308 stored before today's ranges would
    /// make every screen and route over that day fail; nothing the ranges let in comes near the bound.
    static func clampedSum(_ expression: String) -> String {
        "sum(CASE WHEN \(expression) > 1e15 THEN 1e15 WHEN \(expression) < -1e15 THEN -1e15 ELSE \(expression) END)"
    }

    // MARK: Inside a transaction

    /// The field `messages` must carry, "" for none; nil when no reading can carry it (as on SQLite).
    static func presenceFilter(_ field: String?) -> String?? {
        guard let field, !field.isEmpty else { return .some(nil) }
        guard !field.contains("\""), !field.contains("\\") else { return nil }
        return .some(field)
    }

    /// The condition that a row carries `field`: its kept column when it has one (a reading's kept number is
    /// there exactly when its JSON holds the field as a number, which the manifest's type makes every stored
    /// value of it), so a weight series reads an indexed column instead of parsing every row's JSON (2 s of a
    /// 200,000-reading store's weights screen); else the JSON's key.
    static func carrying(_ field: String, bindings: inout PostgresBindings) -> String {
        if let column = ReadingNumbers.columnOfField[field] { return " AND \(column) IS NOT NULL" }
        // The text's quoted key first: a row without it cannot carry the field (hmon writes every key as it
        // is, never escaped), and looking for it costs far less than parsing the row's JSON.
        bindings.append("\"\(field)\"")
        bindings.append(field)
        return " AND strpos(data, $\(bindings.count - 1)) > 0 AND data::jsonb ? $\(bindings.count)"
    }

    static func lastRows(deviceID: String, count: Int, field: String?, in db: PGConnection) async throws -> [PostgresRandomAccessRow]? {
        guard let presence = presenceFilter(field) else { return nil }
        if let field = presence {
            return try await db.all("""
                SELECT * FROM messages WHERE sdid = \(ByteaID(deviceID)) AND data::jsonb ? \(field)
                ORDER BY ts DESC, mid DESC LIMIT \(count)
                """)
        }
        return try await db.all("""
            SELECT * FROM messages WHERE sdid = \(ByteaID(deviceID)) ORDER BY ts DESC, mid DESC LIMIT \(count)
            """)
    }

    static func lastMessages(deviceID: String, userID: String, count: Int, field: String?, in db: PGConnection) async throws -> [Message] {
        _ = try await db.device(id: deviceID, ownedBy: userID)
        return try await lastRows(deviceID: deviceID, count: count, field: field, in: db)?.map(message(row:)) ?? []
    }

    /// Each device's newest reading (carrying `field`, when one is named), by device id; the devices are
    /// the user's own, already checked.
    static func latestReadings(of devices: [(id: String, field: String?)], in db: PGConnection) async throws -> [String: Message] {
        // A field no reading can carry (`presenceFilter`) finds nothing, as `lastRows` does.
        let asked = devices.compactMap { device in presenceFilter(device.field).map { (device.id, $0 ?? "") } }
        guard !asked.isEmpty else { return [:] }
        let rows = try await db.all("""
            SELECT m.* FROM unnest(\(asked.map(\.0)), \(asked.map(\.1))) AS d(id, field)
            CROSS JOIN LATERAL (
                SELECT * FROM messages WHERE sdid = hmon_binary_id(d.id) AND (d.field = '' OR data::jsonb ? d.field)
                ORDER BY ts DESC, mid DESC LIMIT 1) AS m
            """)
        var latest: [String: Message] = [:]
        for row in rows {
            let message = try message(row: row)
            latest[message.sdid] = message
        }
        return latest
    }

    static func energyTotals(userID: String, from: Int64, to: Int64, in db: PGConnection) async throws -> EnergyTotals {
        guard let row = try await db.one("""
            SELECT coalesce(\(unescaped: clampedSum("active_energy")), 0) AS active,
                   coalesce(\(unescaped: clampedSum("calories")), 0) AS consumed,
                   coalesce(\(unescaped: clampedSum("basal_energy")), 0) AS basal, count(basal_energy) AS basal_count
            FROM messages WHERE uid = \(ByteaID(userID)) AND ts >= \(from) AND ts < \(to)
            """) else { return EnergyTotals(active: 0, consumed: 0, recordedBasal: nil) }
        let basalCount = try row.value("basal_count", Int.self)
        return EnergyTotals(active: try row.value("active"), consumed: try row.value("consumed"),
                            recordedBasal: basalCount > 0 ? try row.value("basal", Double.self) : nil)
    }

    static func latestWeight(userID: String, before: Int64, in db: PGConnection) async throws -> WeightReading? {
        try await db.one("""
            SELECT ts, weight FROM messages WHERE uid = \(ByteaID(userID)) AND ts < \(before) AND weight IS NOT NULL ORDER BY ts DESC LIMIT 1
            """).map { WeightReading(date: Date(millisecondsSince1970: try $0.value("ts")), kg: try $0.value("weight")) }
    }

    /// The user's device `deviceID`, its row locked as `lockedDevice` locks it, with what a write checks its
    /// readings against (`ReadingTarget`).
    static func readingTarget(deviceID: String, ownedBy userID: String, in db: PGConnection) async throws -> ReadingTarget {
        let device = try await lockedDevice(id: deviceID, ownedBy: userID, in: db)
        return ReadingTarget(device: device, manifest: try await db.manifest(ofType: device.dtid),
                             typeName: try await db.deviceType(id: device.dtid)?.name)
    }

    static func message(row: PostgresRandomAccessRow) throws -> Message {
        let json = try row.value("data", String.self)
        let data = try JSONDecoder().decode([String: FieldValue].self, from: Data(json.utf8))
        return Message(mid: try row.value("mid", ByteaID.self).id, sdid: try row.value("sdid", ByteaID.self).id,
                       sdtid: try row.value("sdtid", ByteaID.self).id, uid: try row.value("uid", ByteaID.self).id,
                       ts: try row.value("ts"), cts: try row.value("cts"), mv: try row.value("mv"), data: data)
    }
}

extension PostgresStore {
    /// Inserts one reading whose `fields` have been checked (`ReadingRules.accepted`): the one place
    /// PostgreSQL's writers (a post, a batch, Exist's updates, an hmon export's import) name `messages`'
    /// columns, as `MessageRecord` is on SQLite, so the stored JSON and the four numbers beside it
    /// (`ReadingNumbers`) come from the same fields. With `unlessStored`, a reading whose id is already
    /// stored is skipped (`ON CONFLICT DO NOTHING`). Returns whether the reading was added.
    @discardableResult
    static func insertReading(mid: String, device: Device, userID: String, ts: Int64, received: Int64,
                              fields: [String: FieldValue], unlessStored: Bool = false, via: ReadingPath? = nil,
                              in db: PGConnection) async throws -> Bool {
        let numbers = ReadingNumbers(fields)
        return try await db.count("""
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data, \(unescaped: ReadingNumbers.columns), via)
            VALUES (\(ByteaID(mid)), \(ByteaID(device.id)), \(ByteaID(device.dtid)), \(ByteaID(userID)), \(ts), \(received), \(device.manifestVersion),
                    \(try StoreRules.encode(fields)), \(numbers.weight), \(numbers.activeEnergy), \(numbers.calories),
                    \(numbers.basalEnergy), \(via?.rawValue))
            \(unescaped: unlessStored ? "ON CONFLICT (mid) DO NOTHING" : "") RETURNING 1
            """) > 0
    }
}
