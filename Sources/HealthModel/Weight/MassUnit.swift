import Foundation

public enum MassUnit: String, Codable, Sendable, CaseIterable {
    case kg, lb

    /// 1 lb = 0.45359237 kg exactly.
    public static let kgPerPound = 0.45359237

    public func fromKg(_ kg: Double) -> Double { self == .kg ? kg : kg / Self.kgPerPound }
    public func toKg(_ value: Double) -> Double { self == .kg ? value : value * Self.kgPerPound }

    public var toggled: MassUnit { self == .kg ? .lb : .kg }
}
