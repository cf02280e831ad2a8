import Foundation
import HealthCore
import HealthModel

/// How `hmon reading …` names a reading's values: "weight 72.4 kg, fatRatio 26.5 %", weights in the
/// person's unit, text values quoted.
public enum ReadingText {
    public static func values(_ data: [String: FieldValue], manifest: Manifest?, massUnit: MassUnit = .kg) -> String {
        // The manifest's order (weight before fat ratio), then any field it does not list.
        let order = manifest?.fields.map(\.name) ?? []
        let names = data.keys.sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
        return names.map { name in
            switch data[name]! {
            case .text(let text): "\(name) \"\(text.count > 40 ? text.prefix(39) + "…" : text)\""
            case .number(let n):
                if name == Field.weight { "\(name) \(Formatting.number(massUnit.fromKg(n), decimals: 2)) \(massUnit.rawValue)" } else {
                    [name, Formatting.number(n, decimals: 2), manifest?.field(name)?.unit].compactMap { $0 }.joined(separator: " ")
                }
            }
        }.joined(separator: ", ")
    }
}
