import CheckedNumbers
import HealthModel

/// Units the exports write, converted to hmon's (kg, cm, kcal, ms), as each kind's table entry lists them.
enum UnitConversion {
    /// `value` in `unit` as `kind.importUnit`, by the units `source` writes the kind in; nil for a unit
    /// hmon does not know. Kilojoules are divided, as the command line and the dashboard convert them
    /// (`EnergyUnit.toKcal`): multiplying by 1/4.184 can differ in the last bit, and the same meal must be
    /// the same kcal however it came in.
    static func converted(_ value: Double, for kind: ReadingKind, unit: String, from source: ReadingSource = .appleHealth) -> Double? {
        guard let factor = kind.sources[source]?.units[unit] else { return nil }
        if kind.quantity == .energy, unit == "kJ" { return EnergyUnit.kJ.toKcal(value) }
        if kind.quantity == .temperature, unit == "degF" || unit == "°F" { return (value - 32) * 5 / 9 }
        return value * factor
    }

    /// "weight outside 1–650 kg".
    static func outOfRangeReason(_ kind: ReadingKind) -> String {
        "\(kind.rangeName) outside \(plain(kind.saneRange.lowerBound))–\(plain(kind.saneRange.upperBound)) \(kind.importUnit)"
    }

    private static func plain(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(rounding: x)) : String(x)
    }
}
