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

    /// The number alone (the row's label names the unit), rounded as everywhere else (`QuantityText`);
    /// without thousands separators, since eight columns of "10,884▲" do not fit 80 columns.
    public static func text(_ value: Double, _ attribute: InsightAttribute, _ profile: Profile) -> String {
        if let kind = attribute.quantityKind { return QuantityText(profile).number(value, kind, grouped: false) }
        switch attribute {
        case .weighIns: return String(Int(rounding: value))
        // Minutes from noon as a clock: 915 is 03:15.
        case .sleepMidpoint:
            let minutes = (Int(rounding: value) + 720) % 1_440
            return String(format: "%02d:%02d", minutes / 60, minutes % 60)
        case .stress: return String(format: "%.2f", value)
        default: return QuantityText(profile).number(value, .plain)
        }
    }
}
