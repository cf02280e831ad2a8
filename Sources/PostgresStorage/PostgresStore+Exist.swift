import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Exist's API in the PostgreSQL store: `LocalStore+Exist` with the same rules and answers.
extension PostgresStore {
    public func existOwners(userID: String) async throws -> [InsightAttribute: ExistOwner] {
        try await read { db in
            var owners: [InsightAttribute: ExistOwner] = [:]
            for row in try await db.all("SELECT * FROM exist_owners WHERE uid = \(userID)") {
                guard let attribute = InsightAttribute(rawValue: try row.value("attribute")) else { continue }
                owners[attribute] = ExistOwner(clientID: try row.value("client_id"), service: try row.value("service"),
                                               deviceID: try row.value("device_id"))
            }
            return owners
        }
    }

    @discardableResult
    public func acquireExist(_ attribute: InsightAttribute, userID: String, clientID: String, service: String,
                             at now: Date) async throws -> ExistOwner {
        guard let target = attribute.writeTarget else { throw HealthError.invalidValue(attribute.whyNotWritable) }
        let type = target.deviceType.deviceType
        return try await write { db in
            if let row = try await db.one("""
                SELECT * FROM exist_owners WHERE uid = \(userID) AND attribute = \(attribute.name) AND client_id = \(clientID)
                """) {
                return ExistOwner(clientID: clientID, service: try row.value("service"), deviceID: try row.value("device_id"))
            }
            let deviceID: String
            if let known = try await db.one("""
                SELECT device_id FROM exist_service_devices WHERE uid = \(userID) AND client_id = \(clientID) AND dtid = \(type.id)
                """) {
                deviceID = try known.value("device_id")
            } else {
                deviceID = try await Self.newServiceDevice(service: service, type: type, userID: userID, now: now, in: db)
                try await db.run("""
                    INSERT INTO exist_service_devices (uid, client_id, dtid, device_id) VALUES (\(userID), \(clientID), \(type.id), \(deviceID))
                    """)
            }
            try await db.run("""
                INSERT INTO exist_owners (uid, attribute, client_id, service, device_id)
                VALUES (\(userID), \(attribute.name), \(clientID), \(service), \(deviceID))
                ON CONFLICT (uid, attribute) DO UPDATE SET client_id = excluded.client_id, service = excluded.service,
                    device_id = excluded.device_id
                """)
            return ExistOwner(clientID: clientID, service: service, deviceID: deviceID)
        }
    }

    public func releaseExist(_ attribute: InsightAttribute, userID: String, clientID: String) async throws -> Bool {
        try await write { db in
            try await db.count("""
                DELETE FROM exist_owners WHERE uid = \(userID) AND attribute = \(attribute.name) AND client_id = \(clientID) RETURNING 1
                """) > 0
        }
    }

    private static func newServiceDevice(service: String, type: DeviceType, userID: String, now: Date, in db: PGConnection) async throws -> String {
        let base = "\(service.prefix(60)) (\(type.name))"
        var name = base
        var n = 2
        while try await db.exists("""
            SELECT 1 FROM devices WHERE uid = \(userID) AND \(unescaped: asciiLower("name")) = \(asciiLowered(name))
            """) {
            name = "\(base) \(n)"
            n += 1
        }
        let id = Secrets.newID()
        try await db.run("""
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected)
            VALUES (\(id), \(userID), \(type.id), \(name), \(type.latestVersion), \(now.millisecondsSince1970), true)
            """)
        return id
    }

    public func writeExistDay(userID: String, deviceID: String, field: String, day: (start: Int64, stop: Int64), ts: Int64,
                              value: Double, increment: Bool, at now: Date) async throws -> Double {
        try StoreRules.checkTimestamp(ts, now: now.millisecondsSince1970)
        return try await write { db in
            let target = try await Self.readingTarget(deviceID: deviceID, ownedBy: userID, in: db)
            let current = try await db.one("""
                SELECT coalesce(sum((data::jsonb ->> \(field))::double precision), 0) AS total FROM messages
                WHERE sdid = \(ByteaID(deviceID)) AND ts >= \(day.start) AND ts < \(day.stop) AND jsonb_typeof(data::jsonb -> \(field)) = 'number'
                """)?.value("total", Double.self) ?? 0
            let total = increment ? current + value : value
            let data = try target.accepted([field: .number(total)])
            try await db.run("""
                DELETE FROM messages WHERE sdid = \(ByteaID(deviceID)) AND ts >= \(day.start) AND ts < \(day.stop) AND data::jsonb ? \(field)
                """)
            try await Self.insertReading(mid: Secrets.newID(), device: target.device, userID: userID, ts: ts,
                                         received: now.millisecondsSince1970, fields: data, in: db)
            return data[field]?.number ?? total
        }
    }

    public func firstReadingTime(userID: String) async throws -> Int64? {
        try await read { db in try await db.one("SELECT min(ts) AS first FROM messages WHERE uid = \(ByteaID(userID))")?.value("first", Int64?.self) }
    }

    // MARK: What was pushed

    public func existPushed(server: String, userID: String) async throws -> [String: [String: Double]] {
        try await read { db in
            var sent: [String: [String: Double]] = [:]
            for row in try await db.all("SELECT attribute, day, value FROM exist_pushed WHERE server = \(server) AND uid = \(userID)") {
                sent[try row.value("attribute", String.self), default: [:]][try row.value("day", String.self)] = try row.value("value", Double.self)
            }
            return sent
        }
    }

    public func rememberExistPushed(server: String, userID: String, values: [(attribute: String, day: String, value: Double)]) async throws {
        guard !values.isEmpty else { return }
        try await write { db in
            for v in values {
                try await db.run("""
                    INSERT INTO exist_pushed (server, uid, attribute, day, value) VALUES (\(server), \(userID), \(v.attribute), \(v.day), \(v.value))
                    ON CONFLICT (server, uid, attribute, day) DO UPDATE SET value = excluded.value
                    """)
            }
        }
    }
}
