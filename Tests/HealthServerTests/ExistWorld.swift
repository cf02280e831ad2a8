import Foundation
import HealthCore
import HealthModel
import HealthServer

/// What the Exist API tests add to a `ServerWorld`: tokens with Exist scopes, personal tokens, readings on
/// days counted back from today, and the JSON of `/api/2/` answers.
extension ServerWorld {
    /// An access token of hmon's own client with the scopes asked for (`health_read,food_write`).
    func scopedToken(_ scope: String, for name: String = "alice") async throws -> String {
        let reply = try await postForm("/authorize", [
            ("client_id", "hmon"), ("response_type", "token"), ("redirect_uri", "hmon://signed-in"),
            ("username", name), ("password", Self.password), ("scope", scope),
        ])
        guard let location = reply.header("Location"), let range = location.range(of: "access_token=") else {
            throw JSONShapeError(text: "no token in the redirect (HTTP \(reply.status)): \(reply.text)")
        }
        return String(location[range.upperBound...])
    }

    /// A GET with `Authorization: Token …` (a personal token).
    func getWithPersonal(_ path: String, token: String) async throws -> Reply {
        try await get(path, headers: ["Authorization": "Token \(token)"])
    }

    var calendar: Calendar { Calendar.current }

    /// Today as the server counts days (its clock, its time zone).
    var today: Day { Day(clock.now, in: calendar) }

    /// A reading on `device` at `hour` o'clock of the day `daysAgo` days before today.
    func post(_ data: [String: FieldValue], on device: Device, daysAgo: Int, hour: Int = 8) async throws {
        let day = today.adding(days: -daysAgo)
        let ts = day.start(in: calendar).addingTimeInterval(Double(hour) * 3600).millisecondsSince1970
        try await store.post(NewMessage(sdid: device.id, ts: ts, data: data), userID: device.uid, now: clock.now)
    }

    func device(_ type: BuiltInDeviceType, named name: String, for user: User) async throws -> Device {
        try await store.addDevice(name: name, typeID: type.deviceType.id, userID: user.id)
    }
}

extension Reply {
    /// `results` of a paged `/api/2/` list.
    var results: [[String: Any]] {
        get throws { try json["results"] as? [[String: Any]] ?? { throw JSONShapeError(text: text) }() }
    }

    var success: [[String: Any]] { ((try? json)?["success"] as? [[String: Any]]) ?? [] }
    var failed: [[String: Any]] { ((try? json)?["failed"] as? [[String: Any]]) ?? [] }
}
