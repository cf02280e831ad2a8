import Foundation
import HealthModel

/// Exist's API in the store, written once over an engine's statements: attribute ownership and what
/// `hmon exist push` has sent. (Writing a day's value is the engine's: it reads JSON fields its own way.)
extension ExistStore where Self: StatementEngine {
    public func existOwners(userID: String) async throws -> [InsightAttribute: ExistOwner] {
        var owners: [InsightAttribute: ExistOwner] = [:]
        for row in try await fetch("SELECT * FROM exist_owners WHERE uid = \(userID)") {
            guard let attribute = InsightAttribute(rawValue: try row.text("attribute")) else { continue }
            owners[attribute] = ExistOwner(clientID: try row.text("client_id"), service: try row.text("service"),
                                           deviceID: try row.text("device_id"))
        }
        return owners
    }

    /// Makes `clientID`'s service the owner of `attribute` (taking it from another service, as Exist does
    /// when the user lets a new app write it), with a device of the attribute's type named after the
    /// service: the one it wrote that type to before (other attributes, or this one before it was taken
    /// away), or a new one.
    @discardableResult
    public func acquireExist(_ attribute: InsightAttribute, userID: String, clientID: String, service: String,
                             at now: Date) async throws -> ExistOwner {
        guard let target = attribute.writeTarget else { throw HealthError.invalidValue(attribute.whyNotWritable) }
        let type = target.deviceType.deviceType
        return try await writingStatements { db in
            if let row = try db.one("""
                SELECT * FROM exist_owners WHERE uid = \(userID) AND attribute = \(attribute.name) AND client_id = \(clientID)
                """) {
                return ExistOwner(clientID: clientID, service: try row.text("service"), deviceID: try row.text("device_id"))
            }
            let deviceID: String
            if let known = try db.one("""
                SELECT device_id FROM exist_service_devices WHERE uid = \(userID) AND client_id = \(clientID) AND dtid = \(type.id)
                """) {
                deviceID = try known.text("device_id")
            } else {
                deviceID = try Self.newServiceDevice(service: service, type: type, userID: userID, now: now, in: db)
                try db.run("""
                    INSERT INTO exist_service_devices (uid, client_id, dtid, device_id) VALUES (\(userID), \(clientID), \(type.id), \(deviceID))
                    """)
            }
            try db.run("""
                INSERT INTO exist_owners (uid, attribute, client_id, service, device_id)
                VALUES (\(userID), \(attribute.name), \(clientID), \(service), \(deviceID))
                ON CONFLICT (uid, attribute) DO UPDATE SET client_id = excluded.client_id, service = excluded.service,
                    device_id = excluded.device_id
                """)
            return ExistOwner(clientID: clientID, service: service, deviceID: deviceID)
        }
    }

    /// Gives up `clientID`'s ownership; false when it did not own the attribute. The readings stay.
    public func releaseExist(_ attribute: InsightAttribute, userID: String, clientID: String) async throws -> Bool {
        try await writingStatements { db in
            try db.changes("""
                DELETE FROM exist_owners WHERE uid = \(userID) AND attribute = \(attribute.name) AND client_id = \(clientID) RETURNING 1
                """) > 0
        }
    }

    /// "Exist sync (Withings Device)", or with a number when the user already has a device of that name.
    private static func newServiceDevice(service: String, type: DeviceType, userID: String, now: Date,
                                         in db: any StatementSession) throws -> String {
        let base = "\(service.prefix(60)) (\(type.name))"
        var name = base
        var n = 2
        while try db.exists("SELECT 1 FROM devices WHERE uid = \(userID) AND \(caselessColumn: "name") = \(caseless: name)") {
            name = "\(base) \(n)"
            n += 1
        }
        let device = Device(id: Secrets.newID(), uid: userID, dtid: type.id, name: name, manifestVersion: type.latestVersion,
                            createdOn: Date(millisecondsSince1970: now.millisecondsSince1970))
        try db.insertDevice(device)
        return device.id
    }

    /// Per attribute name and day (`YYYY-MM-DD`), the value last sent to `server` for the user.
    public func existPushed(server: String, userID: String) async throws -> [String: [String: Double]] {
        var sent: [String: [String: Double]] = [:]
        for row in try await fetch("SELECT attribute, day, value FROM exist_pushed WHERE server = \(server) AND uid = \(userID)") {
            sent[try row.text("attribute"), default: [:]][try row.text("day")] = try row.real("value")
        }
        return sent
    }

    /// Notes values as sent (after the server accepted them).
    public func rememberExistPushed(server: String, userID: String, values: [(attribute: String, day: String, value: Double)]) async throws {
        guard !values.isEmpty else { return }
        try await writingStatements { db in
            for v in values {
                try db.run("""
                    INSERT INTO exist_pushed (server, uid, attribute, day, value) VALUES (\(server), \(userID), \(v.attribute), \(v.day), \(v.value))
                    ON CONFLICT (server, uid, attribute, day) DO UPDATE SET value = excluded.value
                    """)
            }
        }
    }
}

extension DerivedDayStore where Self: StatementEngine {
    /// The time of the user's first reading (ms), for the count of an attribute's values.
    public func firstReadingTime(userID: String) async throws -> Int64? {
        try await fetchOne("SELECT min(ts) AS first FROM messages WHERE uid = \(binaryID: userID)")?.optionalInteger("first")
    }
}
