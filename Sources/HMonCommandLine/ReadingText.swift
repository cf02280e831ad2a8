import Foundation
import HealthCore
import HealthModel

/// How `hmon reading …` names a reading's values: "weight 72.4 kg, hydration 40.1 kg", masses and energy in
/// the person's units and every figure rounded as the dashboard rounds it (`QuantityText`), text quoted.
public enum ReadingText {
    public static func values(_ data: [String: FieldValue], manifest: Manifest?, massUnit: MassUnit = .kg,
                              energyUnit: EnergyUnit = .kcal) -> String {
        let quantities = QuantityText(massUnit: massUnit, energyUnit: energyUnit)
        // The manifest's order (weight before fat ratio), then any field it does not list.
        let order = manifest?.fields.map(\.name) ?? []
        let names = data.keys.sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
        return names.map { name in
            switch data[name]! {
            case .text(let text): "\(name) \"\(text.count > 40 ? text.prefix(39) + "…" : text)\""
            case .number(let n):
                // "steps 740", not "steps 740 steps": the name already says what the count is of.
                if let kind = Field.quantityKind(of: name) { "\(name) \(kind == .steps ? quantities.number(n, kind) : quantities.text(n, kind))" } else {
                    [name, Formatting.number(n, decimals: 2), manifest?.field(name)?.unit].compactMap { $0 }.joined(separator: " ")
                }
            }
        }.joined(separator: ", ")
    }
}
