import Foundation

/// A body's make-up: its fat as a share of its weight, and its weight split into fat and everything else.
public struct BodyComposition: Codable, Sendable, Equatable {
    /// Body fat, per cent of the weight (23.5 for 23.5 %).
    public var fatPercent: Double
    public var fatMassKg: Double
    /// Everything that is not fat (muscle, bone, water, organs), as TrendWeight and the scales count it.
    public var leanMassKg: Double

    public init(fatPercent: Double, fatMassKg: Double, leanMassKg: Double) {
        self.fatPercent = fatPercent
        self.fatMassKg = fatMassKg
        self.leanMassKg = leanMassKg
    }

    /// TrendWeight's split of one weigh-in: fat mass = weight × fat share, lean mass = weight − fat mass.
    public init(weightKg: Double, fatPercent: Double) {
        let fatMassKg = weightKg * fatPercent / 100
        self.init(fatPercent: fatPercent, fatMassKg: fatMassKg, leanMassKg: weightKg - fatMassKg)
    }
}

/// One day of the body composition trend.
public struct BodyCompositionDay: Codable, Sendable, Equatable {
    public var day: Day
    /// The day's measurement; nil on a day between two, where each trend moved toward its value
    /// interpolated between them.
    public var measured: BodyComposition?
    /// Each of the three figures smoothed on its own, as the weight is.
    public var trend: BodyComposition

    public init(day: Day, measured: BodyComposition?, trend: BodyComposition) {
        self.day = day
        self.measured = measured
        self.trend = trend
    }
}
