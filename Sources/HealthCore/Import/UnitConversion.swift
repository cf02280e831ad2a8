import CheckedNumbers
import HealthModel

/// Units the exports write, converted to hmon's (kg, cm, kcal, ms).
enum UnitConversion {
    /// `value` in `unit` as `kind.unit`; nil for a unit hmon does not know. Kilojoules are divided,
    /// as the command line and the dashboard convert them (`EnergyUnit.toKcal`): multiplying by
    /// 1/4.184 can differ in the last bit, and the same meal must be the same kcal however it came in.
    static func converted(_ value: Double, for kind: ReadingKind, unit: String) -> Double? {
        if kind.isEnergy, unit == "kJ" { return EnergyUnit.kJ.toKcal(value) }
        return factor(for: kind, unit: unit).map { value * $0 }
    }

    /// What to multiply a value in `unit` by to get `kind.unit`; nil for a unit hmon does not know.
    static func factor(for kind: ReadingKind, unit: String) -> Double? {
        switch kind {
        case .weight:
            switch unit {
            case "kg": 1
            case "lb", "lbs": MassUnit.kgPerPound
            case "g": 0.001
            case "st": 14 * MassUnit.kgPerPound
            default: nil
            }
        case .height:
            switch unit {
            case "cm": 1
            case "m": 100
            case "mm": 0.1
            case "in": 2.54
            case "ft": 30.48
            default: nil
            }
        case .activeEnergy, .basalEnergy, .dietaryEnergy:
            switch unit {
            case "kcal", "Cal": 1              // Apple writes food energy as "Cal", i.e. kcal
            case "kJ": 1 / EnergyUnit.kJPerKcal
            case "cal": 0.001
            default: nil
            }
        case .heartRateVariability:
            switch unit {
            case "ms": 1
            case "s": 1000
            default: nil
            }
        case .steps: unit == "count" ? 1 : nil
        case .restingHeartRate: unit == "count/min" ? 1 : nil
        // Apple Health writes body fat as a fraction with the unit "%" (0.235 for 23.5 %).
        case .bodyFat: unit == "%" ? 100 : nil
        case .leanMass: factor(for: .weight, unit: unit)
        case .heartRateVariabilityFromBeats: nil   // computed from beats, never read with a unit
        case .heartRateVariabilityBeatsRefused: nil   // the record's own value, already in ms
        }
    }

    /// "weight outside 1–650 kg".
    static func outOfRangeReason(_ kind: ReadingKind) -> String {
        "\(kind.rangeName) outside \(plain(kind.saneRange.lowerBound))–\(plain(kind.saneRange.upperBound)) \(kind.unit)"
    }

    private static func plain(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(rounding: x)) : String(x)
    }
}

extension ReadingKind {
    var isEnergy: Bool {
        switch self {
        case .activeEnergy, .basalEnergy, .dietaryEnergy: true
        case .weight, .height, .heartRateVariability, .heartRateVariabilityFromBeats, .heartRateVariabilityBeatsRefused, .steps, .restingHeartRate, .bodyFat, .leanMass: false
        }
    }

    /// The singular name used in skip reasons.
    var rangeName: String {
        switch self {
        case .weight: "weight"
        case .height: "height"
        case .activeEnergy: "active energy"
        case .basalEnergy: "resting energy"
        case .dietaryEnergy: "energy consumed"
        case .heartRateVariability: "HRV"
        case .steps: "step count"
        case .restingHeartRate: "resting heart rate"
        case .bodyFat: "body fat"
        case .leanMass: "lean mass"
        case .heartRateVariabilityFromBeats: "HRV from beats"
        case .heartRateVariabilityBeatsRefused: "HRV with beats refused"
        }
    }
}
