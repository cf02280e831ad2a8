import CheckedNumbers

/// A day's energy balance as a person reads it: each part (active, resting, consumed) rounded on its own to
/// a whole number of the profile's unit, and the totals summed from those shown parts, never rounded apart
/// from them, so that Active + Resting is the Spent shown and Consumed − Spent the Net shown.
public struct ShownEnergy: Sendable, Equatable {
    public var active: Int
    public var resting: Int?
    public var consumed: Int

    public init(_ summary: EnergySummary, unit: EnergyUnit) {
        active = Int(rounding: unit.fromKcal(summary.active))
        resting = summary.resting.map { Int(rounding: unit.fromKcal($0)) }
        consumed = Int(rounding: unit.fromKcal(summary.consumed))
    }

    /// Active plus resting, when resting is known.
    public var spent: Int? { resting.map { active &+ $0 } }
    /// Consumed minus spent: positive is a surplus.
    public var net: Int? { spent.map { consumed &- $0 } }
}
