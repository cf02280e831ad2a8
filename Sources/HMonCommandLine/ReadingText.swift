import Foundation
import HealthCore
import HealthModel

/// How `hmon reading …` names a reading's values: "weight 72.4 kg, water 40.1 kg", fields in people's words, masses, energy and
/// temperatures in the person's units (°F with lb) and every figure rounded as the dashboard rounds it (`QuantityText`), text quoted.
public enum ReadingText {
    public static func values(_ data: [String: FieldValue], manifest: Manifest?, massUnit: MassUnit = .kg,
                              energyUnit: EnergyUnit = .kcal) -> String {
        let quantities = QuantityText(massUnit: massUnit, energyUnit: energyUnit)
        // The manifest's order (weight before fat ratio), then any field it does not list.
        let order = manifest?.fields.map(\.name) ?? []
        let names = data.keys.sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
        return names.map { name in
            let word = words(for: name)
            switch data[name]! {
            case .text(let text): return "\(word) \"\(text.count > 40 ? text.prefix(39) + "…" : text)\""
            case .number(let n):
                // "steps 740", not "steps 740 steps": the name already says what the count is of.
                if let kind = Field.quantityKind(of: name) {
                    return "\(word) \(kind == .steps ? quantities.number(n, kind) : quantities.text(n, kind, signed: kind == .temperatureChange))"
                }
                return [word, Formatting.number(n, decimals: 2), manifest?.field(name)?.unit].compactMap { $0 }.joined(separator: " ")
            }
        }.joined(separator: ", ")
    }

    /// A field as a person reads it: its kind's label as the screens write it, lower-cased in a list ("body fat",
    /// "eaten", "REM"); a field no kind describes by its stored name.
    static func words(for field: String) -> String {
        // Where it came from (`ReadingOrigin`), or an HRV measurement's method.
        if field == Field.source { return "from" }
        guard let label = ReadingKind(field: field)?.label else { return field }
        let letters = Array(label)
        guard letters.count > 1, letters[1].isLowercase else { return label }
        return letters[0].lowercased() + String(letters.dropFirst())
    }
}
