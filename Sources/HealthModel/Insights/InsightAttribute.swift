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
    /// Time asleep over time in bed of that night, in per cent (hmon's own: Exist has no efficiency attribute).
    case sleepEfficiency = "sleep_efficiency"
    /// The middle of that night's sleep, in minutes from the noon before (`NightFigures.midpointFromNoon`).
    case sleepMidpoint = "sleep_midpoint"
    /// That night's Sleep Regularity Index against the night before (`NightFigures.regularity`).
    case sleepRegularity = "sleep_regularity"
    /// Vital signs, each its day's mean, hmon's own attributes (Exist has no template for them). A blood
    /// pressure is one measurement: its systolic figure stands for it, as the diastolic moves with it.
    case bloodPressure = "blood_pressure_systolic"
    case oxygenSaturation = "oxygen_saturation"
    case respiratoryRate = "respiratory_rate"
    /// The night's skin temperature against the wearer's baseline, °C: what a ring or watch measures.
    case skinTemperatureChange = "skin_temperature_change"

    /// The name a client sees (`weight`, `active_energy`).
    public var name: String { rawValue }

    /// What hmon knows of an attribute, in one row: adding an attribute is a case and its row.
    struct Facts: Sendable {
        var label: String
        /// Exist's group (`health`, `food`, `activity`, `mood`).
        var group: String
        /// Whether its level drifts over months, so it is correlated by its day-to-day change: two series
        /// that both drift (weight down, steps up over a year) correlate as levels whatever their days do.
        var isTrended: Bool
        /// The attributes hmon computes it from: a pair of an attribute and one of its parts correlates by
        /// construction (net energy falls as activity rises), so such pairs are not tested.
        var parts: Set<InsightAttribute>
        /// The verb phrases of the sentences: "you eat more", "your weight goes up".
        var more: String
        var less: String
        /// The unit its values are in (metric, kcal inside hmon; the JSON converts energy to kJ as Exist's
        /// templates have it).
        var unit: String
        /// How its figures are written (`QuantityText`); nil for counts and scores without a kind of their own.
        var quantityKind: QuantityKind?
        /// Exist's `value_type`: 0 integer, 1 decimal, 3 a period in minutes, 5 percentage 0–1, 8 scale.
        var existValueType: Int
    }

    /// The table of attributes: one row each, and the only `switch` over them here.
    var facts: Facts {
        switch self {
        case .weight: Facts(label: "Weight", group: "health", isTrended: true, parts: [],
                         more: "your weight goes up more", less: "your weight goes down more",
                         unit: "kg", quantityKind: .mass, existValueType: 1)
        case .bodyFat: Facts(label: "Body fat", group: "health", isTrended: true, parts: [],
                         more: "your body fat goes up more", less: "your body fat goes down more",
                         unit: "%", quantityKind: .percent, existValueType: 5)
        case .leanMass: Facts(label: "Lean mass", group: "health", isTrended: true, parts: [],
                         more: "your lean mass goes up more", less: "your lean mass goes down more",
                         unit: "kg", quantityKind: .mass, existValueType: 1)
        case .weighIns: Facts(label: "Weigh-ins", group: "health", isTrended: false, parts: [.weight, .bodyFat, .leanMass],
                         more: "you weigh in more often", less: "you weigh in less often",
                         unit: "", quantityKind: nil, existValueType: 0)
        case .energy: Facts(label: "Energy eaten", group: "food", isTrended: false, parts: [],
                         more: "you eat more", less: "you eat less",
                         unit: "kcal", quantityKind: .energy, existValueType: 1)
        case .activeEnergy: Facts(label: "Active energy", group: "activity", isTrended: false, parts: [],
                         more: "you burn more active energy", less: "you burn less active energy",
                         unit: "kcal", quantityKind: .energy, existValueType: 1)
        // Mostly the BMR, a function of weight: it drifts as weight does.
        case .restingEnergy: Facts(label: "Resting energy", group: "activity", isTrended: true, parts: [.weight],
                         more: "your resting energy goes up more", less: "your resting energy goes down more",
                         unit: "kcal", quantityKind: .energy, existValueType: 1)
        case .netEnergy: Facts(label: "Net energy", group: "food", isTrended: false, parts: [.energy, .activeEnergy, .restingEnergy],
                         more: "your energy balance is higher", less: "your energy balance is lower",
                         unit: "kcal", quantityKind: .energy, existValueType: 1)
        case .steps: Facts(label: "Steps", group: "activity", isTrended: false, parts: [],
                         more: "you walk more", less: "you walk less",
                         unit: "", quantityKind: .steps, existValueType: 0)
        case .restingHeartRate: Facts(label: "Resting heart rate", group: "health", isTrended: false, parts: [],
                         more: "your resting heart rate is higher", less: "your resting heart rate is lower",
                         unit: "bpm", quantityKind: .heartRate, existValueType: 0)
        case .heartRateVariability: Facts(label: "HRV", group: "health", isTrended: false, parts: [],
                         more: "your HRV is higher", less: "your HRV is lower",
                         unit: "ms", quantityKind: .milliseconds, existValueType: 0)
        // Welltory computes its stress score from the HRV of the same measurement: they move together by
        // construction, whatever the person does.
        case .stress: Facts(label: "Stress", group: "mood", isTrended: false, parts: [.heartRateVariability],
                         more: "your stress is higher", less: "your stress is lower",
                         unit: "", quantityKind: nil, existValueType: 5)
        // A duration in minutes, as Exist's sleep attribute is.
        case .sleep: Facts(label: "Sleep", group: "sleep", isTrended: false, parts: [],
                         more: "you sleep longer", less: "you sleep less",
                         unit: "min", quantityKind: .minutes, existValueType: 3)
        // Made from time asleep, so the pair is not tested; a percentage 0–1, as Exist's value type 5 is.
        case .sleepEfficiency: Facts(label: "Sleep efficiency", group: "sleep", isTrended: false, parts: [.sleep],
                         more: "you sleep more of your time in bed", less: "you lie awake more of your time in bed",
                         unit: "%", quantityKind: .percent, existValueType: 5)
        // A time of day that may fall either side of midnight, as Exist's sleep_start is: value type 6.
        case .sleepMidpoint: Facts(label: "Sleep midpoint", group: "sleep", isTrended: false, parts: [],
                         more: "you sleep later", less: "you sleep earlier",
                         unit: "", quantityKind: nil, existValueType: 6)
        case .sleepRegularity: Facts(label: "Sleep regularity", group: "sleep", isTrended: false, parts: [],
                         more: "you sleep at more regular hours", less: "you sleep at less regular hours",
                         unit: "", quantityKind: nil, existValueType: 1)
        case .bloodPressure: Facts(label: "Blood pressure", group: "health", isTrended: false, parts: [],
                         more: "your blood pressure is higher", less: "your blood pressure is lower",
                         unit: "mmHg", quantityKind: .pressure, existValueType: 0)
        case .oxygenSaturation: Facts(label: "SpO2", group: "health", isTrended: false, parts: [],
                         more: "your blood oxygen is higher", less: "your blood oxygen is lower",
                         unit: "%", quantityKind: .percent, existValueType: 5)
        case .respiratoryRate: Facts(label: "Breathing", group: "health", isTrended: false, parts: [],
                         more: "you breathe faster", less: "you breathe slower",
                         unit: "breaths/min", quantityKind: .breathingRate, existValueType: 1)
        case .skinTemperatureChange: Facts(label: "Skin temp. change", group: "health", isTrended: false, parts: [],
                         more: "your skin is warmer than your baseline", less: "your skin is cooler than your baseline",
                         unit: "°C", quantityKind: .temperatureChange, existValueType: 1)
        }
    }

    public var label: String { facts.label }
    public var group: String { facts.group }
    public var isTrended: Bool { facts.isTrended }
    public var unit: String { facts.unit }
    public var quantityKind: QuantityKind? { facts.quantityKind }
    /// Energy, eaten or spent: what Exist counts in kJ.
    public var isEnergy: Bool { quantityKind == .energy }
    var more: String { facts.more }
    var less: String { facts.less }

    // MARK: How attributes depend on each other (the one list the insights and their tests read)

    /// The attributes hmon computes it from (`Facts.parts`).
    public var parts: Set<InsightAttribute> { facts.parts }

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
    /// A night's length and its midpoint come from the same bed and wake times: with waking fixed by an alarm, a
    /// longer night is an earlier one.
    public static let sameMeasure: [Set<InsightAttribute>] = [[.steps, .activeEnergy], [.sleep, .sleepMidpoint]]

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

    public static func < (a: InsightAttribute, b: InsightAttribute) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension InsightAttribute {
    /// A value as Exist's template gives it: energy in kJ, body fat as a fraction 0–1, the rest as hmon keeps it.
    public func existValue(_ value: Double) -> Double {
        if isEnergy { return value * EnergyUnit.kJPerKcal }
        if isPercentage { return value / 100 }
        return value
    }

    /// Kept in per cent (body fat, sleep efficiency), which Exist counts as a fraction 0–1.
    public var isPercentage: Bool { quantityKind == .percent && existValueType == 5 }

    /// Exist's `value_type` (`Facts.existValueType`).
    public var existValueType: Int { facts.existValueType }
}
