import Foundation

/// Basal metabolic rate formulas, in kcal per day.
public enum BMRFormula: String, Codable, Sendable, CaseIterable {
    case mifflinStJeor, harrisBenedict, katchMcArdle

    public var displayName: String {
        switch self {
        case .mifflinStJeor: "Mifflin-St Jeor"
        case .harrisBenedict: "Harris-Benedict (1919)"
        case .katchMcArdle: "Katch-McArdle"
        }
    }
}
