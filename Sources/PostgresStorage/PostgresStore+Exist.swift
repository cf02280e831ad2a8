import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Exist's writes that become readings, on PostgreSQL (the rest of Exist's API: `ExistStore+Statements`).
extension PostgresStore {
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
}
