import Foundation

/// A day's energy balance, in kcal. Net = consumed − active − resting.
///
/// When the profile lacks what the BMR needs, `resting` and `net` are nil and `missing` names the gaps
/// ("height", "birth date", "sex", "weight"); never a silent zero.
public struct EnergySummary: Sendable, Equatable {
    public enum Missing: String, Sendable, Equatable, CaseIterable {
        case height, birthDate = "birth date", sex, weight
    }

    /// Where the resting figure came from.
    public enum RestingSource: Sendable, Equatable {
        /// Estimated from the BMR formula, prorated over `fractionOfDay` (1 for a past day).
        case estimated(BMRFormula, bmrPerDay: Double, fractionOfDay: Double)
        /// Summed from recorded `basalEnergy` readings (e.g. imported from Apple Health).
        case recorded
    }

    public var day: Day
    public var active: Double
    public var consumed: Double
    public var resting: Double?
    public var restingSource: RestingSource?
    public var missing: [Missing]
    /// The weight the BMR used (latest reading on or before the day), kg.
    public var weightKg: Double?

    public var net: Double? { resting.map { consumed - active - $0 } }
    public var isComplete: Bool { resting != nil }

    public init(day: Day, active: Double, consumed: Double, resting: Double?, restingSource: RestingSource?,
                missing: [Missing], weightKg: Double?) {
        self.day = day
        self.active = active
        self.consumed = consumed
        self.resting = resting
        self.restingSource = restingSource
        self.missing = missing
        self.weightKg = weightKg
    }
}
