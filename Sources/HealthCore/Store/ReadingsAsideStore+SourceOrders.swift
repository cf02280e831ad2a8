import Foundation
import HealthModel

/// Each person's source order per family, written once over an engine's statements.
extension ReadingsAsideStore where Self: StatementEngine {
    public func sourceOrders(userID: String) async throws -> [MeasurementFamily: SourceOrder] {
        var orders: [MeasurementFamily: SourceOrder] = [:]
        for row in try await fetch("SELECT family, preferred FROM source_orders WHERE user_id = \(userID)") {
            // A family or way a newer hmon wrote is left out: its readings keep the default order here.
            guard let family = MeasurementFamily(rawValue: try row.text("family")),
                  let path = ReadingPath(rawValue: try row.text("preferred")) else { continue }
            orders[family] = SourceOrder(preferred: path)
        }
        return orders
    }

    public func setSourceOrder(_ order: SourceOrder, family: MeasurementFamily, userID: String) async throws {
        try await writingStatements { db in
            if let preferred = order.preferred {
                try db.run("""
                    INSERT INTO source_orders (user_id, family, preferred) VALUES (\(userID), \(family.rawValue), \(preferred.rawValue))
                    ON CONFLICT (user_id, family) DO UPDATE SET preferred = excluded.preferred
                    """)
            } else {
                try db.run("DELETE FROM source_orders WHERE user_id = \(userID) AND family = \(family.rawValue)")
            }
        }
    }
}

extension ReadingsAsideStore where Self: StatementEngine {
    public func asideReadings(userID: String, from: Int64, to: Int64, mids: [String]?) async throws -> [AsideReading] {
        if let mids, mids.isEmpty { return [] }
        let statement: StoreStatement = if let mids {
            """
            SELECT * FROM readings_aside WHERE uid = \(binaryID: userID) AND ts >= \(from) AND ts < \(to) AND mid \(isAnyOf: mids)
            ORDER BY ts, mid
            """
        } else {
            "SELECT * FROM readings_aside WHERE uid = \(binaryID: userID) AND ts >= \(from) AND ts < \(to) ORDER BY ts, mid"
        }
        return try await fetch(statement).compactMap { row in
            // A way hmon does not know (a later hmon's) is skipped rather than shown as another.
            guard let path = ReadingPath(rawValue: try row.text("via")) else { return nil }
            return AsideReading(message: try Message(row: row), path: path, countedMid: try row.text("counted_mid"))
        }
    }
}
