import Foundation
import CheckedNumbers

/// The weekday table's cells, in the person's units (shared by the command line and the screen's model).
public enum AverageCells {
    public static func label(_ attribute: InsightAttribute, _ profile: Profile) -> String {
        switch attribute.unit {
        case "kg": "\(attribute.label) (\(profile.massUnit.rawValue))"
        case "kcal": "\(attribute.label) (\(profile.energyUnit.rawValue))"
        case "": attribute.label
        default: "\(attribute.label) (\(attribute.unit))"
        }
    }

    public static func text(_ value: Double, _ attribute: InsightAttribute, _ profile: Profile) -> String {
        switch attribute {
        case .weight, .leanMass: String(format: "%.1f", profile.massUnit.fromKg(value))
        case .energy, .activeEnergy, .restingEnergy, .netEnergy: String(Int(rounding: profile.energyUnit.fromKcal(value)))
        case .steps, .restingHeartRate, .weighIns: String(Int(rounding: value))
        case .stress: String(format: "%.2f", value)
        default: String(format: "%.1f", value)
        }
    }
}
