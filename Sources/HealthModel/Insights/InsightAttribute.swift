import Foundation

/// The daily attributes insights are computed over, named as Exist's templates name them where one
/// exists (`weight`, `body_fat`, …) so the Exist API can serve them unchanged; hmon's own ones
/// (`resting_energy`, `net_energy`, `weigh_ins`, and `welltory_stress`, which is not Exist's
/// self-rated `stress_level`) are custom attributes in Exist's terms.
public enum InsightAttribute: String, CaseIterable, Sendable, Codable, Comparable {
    case weight, bodyFat = "body_fat", leanMass = "lean_mass", weighIns = "weigh_ins"
    case energy, activeEnergy = "active_energy", restingEnergy = "resting_energy", netEnergy = "net_energy"
    case steps, restingHeartRate = "heartrate_resting", heartRateVariability = "heartrate_variability"
    case stress = "welltory_stress"
    /// Time asleep in the night that ends on the day: against the same day's HRV it is the night before
    /// that morning's measurement.
    case sleep

    /// The name a client sees (`weight`, `active_energy`).
    public var name: String { rawValue }

    public var label: String {
        switch self {
        case .weight: "Weight"
        case .bodyFat: "Body fat"
        case .leanMass: "Lean mass"
        case .weighIns: "Weigh-ins"
        case .energy: "Energy eaten"
        case .activeEnergy: "Active energy"
        case .restingEnergy: "Resting energy"
        case .netEnergy: "Net energy"
        case .steps: "Steps"
        case .restingHeartRate: "Resting heart rate"
        case .heartRateVariability: "HRV"
        case .stress: "Stress"
        case .sleep: "Sleep"
        }
    }

    /// Exist's group (`health`, `food`, `activity`, `mood`).
    public var group: String {
        switch self {
        case .weight, .bodyFat, .leanMass, .weighIns, .restingHeartRate, .heartRateVariability: "health"
        case .energy, .netEnergy: "food"
        case .activeEnergy, .restingEnergy, .steps: "activity"
        case .stress: "mood"
        case .sleep: "sleep"
        }
    }

    /// Whether its level drifts over months, so it is correlated by its day-to-day change: two series
    /// that both drift (weight down, steps up over a year) correlate as levels whatever their days do.
    /// Body composition drifts; resting energy here is mostly the BMR, a function of weight.
    public var isTrended: Bool {
        switch self {
        case .weight, .bodyFat, .leanMass, .restingEnergy: true
        default: false
        }
    }

    // MARK: How attributes depend on each other (the one list the insights and their tests read)

    /// The attributes hmon computes it from: a pair of an attribute and one of its parts correlates by
    /// construction (net energy falls as activity rises), so such pairs are not tested.
    public var parts: Set<InsightAttribute> {
        switch self {
        case .netEnergy: [.energy, .activeEnergy, .restingEnergy]
        case .restingEnergy: [.weight]
        case .weighIns: [.weight, .bodyFat, .leanMass]
        // Welltory computes its stress score from the HRV of the same measurement: they move together by
        // construction, whatever the person does.
        case .stress: [.heartRateVariability]
        default: []
        }
    }

    /// Its parts, their parts and so on: net energy comes from weight too, through resting energy.
    public var allParts: Set<InsightAttribute> {
        var found = parts
        var frontier = parts
        while let next = frontier.popFirst() {
            for part in next.parts where !found.contains(part) {
                found.insert(part)
                frontier.insert(part)
            }
        }
        return found
    }

    /// Pairs of attributes that measure one thing twice: a watch's active energy is mostly its steps.
    /// They correlate as expected, not as a finding about the person.
    public static let sameMeasure: [Set<InsightAttribute>] = [[.steps, .activeEnergy]]

    /// How a pair relates before any data is looked at.
    public enum PairRelation: Sendable, Equatable {
        /// Neither says anything about the other by construction: tested, and a finding when it holds.
        case independent
        /// One is computed from the other, or both from the same reading (resting energy and weigh-ins
        /// both move on a weigh-in day): not tested at all.
        case derived
        /// They measure one thing twice, directly or through a part (net energy through active energy and
        /// steps): tested, and shown apart as expected, never ranked as a finding.
        case sameMeasure
    }

    public func relation(to other: InsightAttribute) -> PairRelation {
        let mine = allParts, theirs = other.allParts
        if self == other || mine.contains(other) || theirs.contains(self) || !mine.isDisjoint(with: theirs) { return .derived }
        let left = mine.union([self]), right = theirs.union([other])
        let overlaps = Self.sameMeasure.contains { pair in
            left.contains { a in right.contains { b in a != b && pair == [a, b] } }
        }
        return overlaps ? .sameMeasure : .independent
    }

    /// Whether a pair is tested at all (see `PairRelation.derived`).
    public func isIndependent(of other: InsightAttribute) -> Bool {
        relation(to: other) != .derived
    }

    /// The verb phrases of the sentences: "you eat more", "your weight goes up".
    var more: String {
        switch self {
        case .weight: "your weight goes up more"
        case .bodyFat: "your body fat goes up more"
        case .leanMass: "your lean mass goes up more"
        case .weighIns: "you weigh in more often"
        case .energy: "you eat more"
        case .activeEnergy: "you burn more active energy"
        case .restingEnergy: "your resting energy goes up more"
        case .netEnergy: "your energy balance is higher"
        case .steps: "you walk more"
        case .restingHeartRate: "your resting heart rate is higher"
        case .heartRateVariability: "your HRV is higher"
        case .stress: "your stress is higher"
        case .sleep: "you sleep longer"
        }
    }

    var less: String {
        switch self {
        case .weight: "your weight goes down more"
        case .bodyFat: "your body fat goes down more"
        case .leanMass: "your lean mass goes down more"
        case .weighIns: "you weigh in less often"
        case .energy: "you eat less"
        case .activeEnergy: "you burn less active energy"
        case .restingEnergy: "your resting energy goes down more"
        case .netEnergy: "your energy balance is lower"
        case .steps: "you walk less"
        case .restingHeartRate: "your resting heart rate is lower"
        case .heartRateVariability: "your HRV is lower"
        case .stress: "your stress is lower"
        case .sleep: "you sleep less"
        }
    }

    /// The unit its values are in (metric, kcal inside hmon; the JSON converts energy to kJ as Exist's
    /// templates have it).
    public var unit: String {
        switch self {
        case .weight, .leanMass: "kg"
        case .bodyFat: "%"
        case .weighIns, .steps: ""
        case .energy, .activeEnergy, .restingEnergy, .netEnergy: "kcal"
        case .restingHeartRate: "bpm"
        case .heartRateVariability: "ms"
        case .stress: ""
        case .sleep: "min"
        }
    }

    /// How its figures are written (`QuantityText`); nil for counts and scores without a kind of their own.
    public var quantityKind: QuantityKind? {
        switch self {
        case .weight, .leanMass: .mass
        case .bodyFat: .percent
        case .energy, .activeEnergy, .restingEnergy, .netEnergy: .energy
        case .steps: .steps
        case .restingHeartRate: .heartRate
        case .heartRateVariability: .milliseconds
        case .sleep: .minutes
        case .weighIns, .stress: nil
        }
    }

    public var isEnergy: Bool {
        switch self {
        case .energy, .activeEnergy, .restingEnergy, .netEnergy: true
        default: false
        }
    }

    public static func < (a: InsightAttribute, b: InsightAttribute) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension InsightAttribute {
    /// A value as Exist's template gives it: energy in kJ, body fat as a fraction 0–1, the rest as hmon keeps it.
    public func existValue(_ value: Double) -> Double {
        if isEnergy { return value * EnergyUnit.kJPerKcal }
        if self == .bodyFat { return value / 100 }
        return value
    }

    /// Exist's `value_type`: 0 integer, 1 decimal, 3 a period in minutes, 5 percentage 0–1, 8 scale.
    public var existValueType: Int {
        switch self {
        case .steps, .weighIns, .restingHeartRate, .heartRateVariability: 0
        case .bodyFat, .stress: 5
        // A duration in minutes, as Exist's sleep attribute is.
        case .sleep: 3
        default: 1
        }
    }
}
