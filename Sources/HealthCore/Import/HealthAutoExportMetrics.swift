import Foundation

/// The Health Auto Export app's metric names that hmon keeps, and what each becomes.
///
/// The names and units are the app's, as its JSON format documents them
/// (https://github.com/Lybron/health-auto-export/wiki/API-Export---JSON-Format: `name`, `units`,
/// `data: [{qty, date, source}]`, dates `yyyy-MM-dd HH:mm:ss Z`); each is one Apple Health quantity type,
/// the one `hmon import` reads from an export.xml's `Record` of the type named beside it.
public enum HealthAutoExportMetrics {
    public static let kept: [String: ReadingKind] = [
        "weight_body_mass": .weight,                  // HKQuantityTypeIdentifierBodyMass
        "body_fat_percentage": .bodyFat,              // HKQuantityTypeIdentifierBodyFatPercentage
        "lean_body_mass": .leanMass,                  // HKQuantityTypeIdentifierLeanBodyMass
        "active_energy": .activeEnergy,               // HKQuantityTypeIdentifierActiveEnergyBurned
        "basal_energy_burned": .basalEnergy,          // HKQuantityTypeIdentifierBasalEnergyBurned
        "dietary_energy": .dietaryEnergy,             // HKQuantityTypeIdentifierDietaryEnergyConsumed
        "heart_rate_variability": .heartRateVariability, // HKQuantityTypeIdentifierHeartRateVariabilitySDNN
        "resting_heart_rate": .restingHeartRate,      // HKQuantityTypeIdentifierRestingHeartRate
        "step_count": .steps,                         // HKQuantityTypeIdentifierStepCount
    ]

    /// The metric name a kind is kept from, for the answer.
    public static func name(of kind: ReadingKind) -> String? {
        kept.first { $0.value == kind }?.key
    }

    /// `qty` in `units` as hmon's unit for `kind`; nil for a unit hmon does not know.
    ///
    /// As `hmon import` converts export.xml's values (`UnitConversion`), with two differences of the app's:
    /// it writes a heart rate's unit as `count/min` or `bpm`, and body fat as a percentage (18.2), where
    /// export.xml writes a fraction (0.182) that the importer multiplies by 100.
    static func converted(_ qty: Double, for kind: ReadingKind, units: String) -> Double? {
        switch (kind, units) {
        case (.restingHeartRate, "bpm"): return qty
        case (.bodyFat, "%"): return qty
        default: return UnitConversion.converted(qty, for: kind, unit: units)
        }
    }
}
