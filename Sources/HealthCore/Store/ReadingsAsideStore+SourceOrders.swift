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
