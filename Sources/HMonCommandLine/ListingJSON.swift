import Foundation
import HealthModel

/// What the listing commands print with `--json`: an array of objects, keys sorted, one a row of the table
/// they print without it. A reading's figures are in the person's units and rounded as shown (`QuantityText`),
/// with the unit beside them, so a script reads the number the table shows.
public enum ListingJSON {
    /// `[{…}, …]`, pretty-printed, keys sorted.
    public static func text(_ objects: [[String: Any]]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
               as: UTF8.self)
    }

    /// `{"id", "time", "device", "values": {field: figure}, "units": {field: unit}}`; a figure JSON cannot
    /// hold is null, text is text.
    public static func reading(_ reading: Message, device: String, time: String, units: QuantityText) -> [String: Any] {
        var values: [String: Any] = [:]
        var unitNames: [String: String] = [:]
        for (name, value) in reading.data {
            switch value {
            case .text(let text): values[name] = text
            case .number(let n):
                let kind = Field.quantityKind(of: name)
                let shown = kind.map { units.shownValue(n, $0) } ?? n
                values[name] = shown.isFinite ? shown : NSNull()
                if let kind, !units.unit(kind).isEmpty { unitNames[name] = units.unit(kind) }
            }
        }
        var object: [String: Any] = ["id": reading.mid, "time": time, "device": device, "values": values, "units": unitNames]
        // Where the reading came from, beside its device: what tells one weigh-in's two paths apart.
        if case .text(let source)? = reading.data[Field.source] { object["source"] = source }
        return object
    }
}
