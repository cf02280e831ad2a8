import Foundation

/// Body mass index, weight / height², with the WHO adult categories
/// (WHO Technical Report Series 894, 2000: < 18.5 underweight, 18.5–24.9 normal, 25–29.9 pre-obese,
/// 30–34.9 obese class I, 35–39.9 class II, ≥ 40 class III).
public struct BodyMassIndex: Sendable, Equatable {
    public enum Category: String, Sendable, Equatable, CaseIterable {
        case underweight, normal = "normal weight", overweight, obeseI = "obese class I",
             obeseII = "obese class II", obeseIII = "obese class III"
    }

    public var value: Double

    public init?(weightKg: Double, heightCm: Double?) {
        guard let heightCm, heightCm > 0 else { return nil }
        let metres = heightCm / 100
        value = weightKg / (metres * metres)
    }

    /// The category of the value as shown to one decimal (24.96 reads "25.0", so it is overweight).
    public var category: Category {
        let shown = (value * 10).rounded() / 10
        switch shown {
        case ..<18.5: return .underweight
        case ..<25: return .normal
        case ..<30: return .overweight
        case ..<35: return .obeseI
        case ..<40: return .obeseII
        default: return .obeseIII
        }
    }
}
