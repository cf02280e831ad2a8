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

    /// The formula that can actually be used: Katch-McArdle needs a lean mass, and without one
    /// the default (Mifflin-St Jeor) stands in.
    public func usable(leanMassKg: Double?) -> BMRFormula {
        self == .katchMcArdle && leanMassKg == nil ? .mifflinStJeor : self
    }

    /// The BMR in kcal/day. W in kg, H in cm, A in whole years. Katch-McArdle uses only the lean
    /// mass (falling back to Mifflin-St Jeor when it is nil; see `usable(leanMassKg:)`).
    public func kcalPerDay(weightKg w: Double, heightCm h: Double, ageYears a: Int, sex: Sex,
                           leanMassKg: Double? = nil) -> Double {
        let a = Double(a)
        switch (usable(leanMassKg: leanMassKg), sex) {
        case (.mifflinStJeor, .male): return 10 * w + 6.25 * h - 5 * a + 5
        case (.mifflinStJeor, .female): return 10 * w + 6.25 * h - 5 * a - 161
        case (.harrisBenedict, .male): return 66.4730 + 13.7516 * w + 5.0033 * h - 6.7550 * a
        case (.harrisBenedict, .female): return 655.0955 + 9.5634 * w + 1.8496 * h - 4.6756 * a
        case (.katchMcArdle, _): return 370 + 21.6 * (leanMassKg ?? 0)
        }
    }
}
