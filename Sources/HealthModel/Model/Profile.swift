import Foundation

public enum Sex: String, Codable, Sendable, CaseIterable {
    case female, male
}

public enum EnergyUnit: String, Codable, Sendable, CaseIterable {
    case kcal, kJ

    /// 1 kcal = 4.184 kJ.
    public static let kJPerKcal = 4.184

    public func fromKcal(_ kcal: Double) -> Double { self == .kcal ? kcal : kcal * Self.kJPerKcal }
    public func toKcal(_ value: Double) -> Double { self == .kcal ? value : value / Self.kJPerKcal }
}

/// What the energy math needs to know about a person, and how they like to read numbers.
/// Any field may be missing; the energy summary then says which ones (see `EnergySummary.missing`).
public struct Profile: Codable, Sendable, Equatable {
    public var birthDate: Day?
    public var sex: Sex?
    public var heightCm: Double?
    /// Lean body mass, when known, enables Katch-McArdle.
    public var leanMassKg: Double?
    public var massUnit: MassUnit
    public var energyUnit: EnergyUnit
    public var bmrFormula: BMRFormula
    /// The weight the person aims for, kg; the trend's projection is drawn against it. Optional in the
    /// JSON of the profile extension, so a profile from an older client or server decodes with no goal.
    public var goalKg: Double?
    /// The sleep the person needs a night, minutes; nil: the common 8 hours (`SleepDebt.defaultNeedMinutes`).
    /// Optional in the JSON as the goal is.
    public var sleepNeedMinutes: Double?

    public init(birthDate: Day? = nil, sex: Sex? = nil, heightCm: Double? = nil, leanMassKg: Double? = nil,
                massUnit: MassUnit = .kg, energyUnit: EnergyUnit = .kcal, bmrFormula: BMRFormula = .mifflinStJeor,
                goalKg: Double? = nil, sleepNeedMinutes: Double? = nil) {
        self.birthDate = birthDate
        self.sex = sex
        self.heightCm = heightCm
        self.leanMassKg = leanMassKg
        self.massUnit = massUnit
        self.energyUnit = energyUnit
        self.bmrFormula = bmrFormula
        self.goalKg = goalKg
        self.sleepNeedMinutes = sleepNeedMinutes
    }

    /// The need sleep debt and the Sleep screen's line are measured against.
    public var sleepNeed: Double { sleepNeedMinutes ?? SleepDebt.defaultNeedMinutes }
}
