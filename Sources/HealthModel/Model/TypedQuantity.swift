import CheckedNumbers
import Foundation

/// A number typed with its unit, wherever hmon asks for one: "160 lb", "72,4 kg", "72.4" (the person's own
/// unit), "500 kJ", "5 ft 7 in", "170 cm". The number goes through `NumberText` (no nan, inf or hexadecimal);
/// a decimal comma reads as a point.
public enum TypedQuantity {
    /// A mass in kg; a bare number is in `unit`. Nil when the text is not a mass.
    public static func kg(_ text: String, unit: MassUnit) -> Double? {
        mass(text).map { ($0.unit ?? unit).toKg($0.value) }
    }

    /// The number as typed and the unit typed with it (nil for a bare number). Nil when the text is not a mass.
    public static func mass(_ text: String) -> (value: Double, unit: MassUnit?)? {
        guard let (value, word) = numberAndUnit(text) else { return nil }
        switch word {
        case "": return (value, nil)
        case "kg", "kgs", "kilo", "kilos": return (value, .kg)
        case "lb", "lbs", "pound", "pounds": return (value, .lb)
        default: return nil
        }
    }

    /// An energy in kcal; a bare number is in `unit`. Nil when the text is not an energy.
    public static func kcal(_ text: String, unit: EnergyUnit) -> Double? {
        guard let (value, word) = numberAndUnit(text) else { return nil }
        switch word {
        case "": return unit.toKcal(value)
        case "kcal", "cal", "calories": return value
        case "kj": return EnergyUnit.kJ.toKcal(value)
        default: return nil
        }
    }

    /// A height in cm: "170", "170 cm", "1.7 m", "5 ft 7 in", "5'7\"", "67 in"; a bare number is cm.
    public static func cm(_ text: String) -> Double? {
        let cleaned = normalized(text).replacingOccurrences(of: "'", with: " ft ").replacingOccurrences(of: "\"", with: " in ")
        let words = cleaned.split(separator: " ").map(String.init)
        // Feet and inches: "5 ft 7 in", "5 ft", "67 in".
        if words.contains(where: { ["ft", "feet", "foot", "in", "inch", "inches"].contains($0) }) {
            var inches = 0.0, index = 0
            while index < words.count {
                guard let value = NumberText.decimal(words[index]), index + 1 < words.count else { return nil }
                switch words[index + 1] {
                case "ft", "feet", "foot": inches += value * 12
                case "in", "inch", "inches": inches += value
                default: return nil
                }
                index += 2
            }
            return inches * 2.54
        }
        guard let (value, word) = numberAndUnit(text) else { return nil }
        switch word {
        case "", "cm": return value
        case "m": return value * 100
        default: return nil
        }
    }

    /// "5 ft 7 in" for a pounds profile (the height written as such people read it), "168 cm" otherwise.
    public static func heightText(cm: Double, massUnit: MassUnit) -> String {
        guard massUnit == .lb else { return "\(Int(rounding: cm)) cm" }
        let inches = Int(rounding: cm / 2.54)
        return "\(inches / 12) ft \(inches % 12) in"
    }

    /// The number and the unit word after it, lower-cased ("" for none): "72,4kg" → (72.4, "kg").
    static func numberAndUnit(_ text: String) -> (Double, String)? {
        let text = normalized(text)
        let numberText = String(text.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") })
        guard let value = NumberText.decimal(numberText) else { return nil }
        let word = text.dropFirst(numberText.count).trimmingCharacters(in: .whitespaces)
        return (value, word)
    }

    private static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").lowercased()
    }
}
