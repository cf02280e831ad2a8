import Foundation
import HealthModel

/// What an import fills in the user's profile: each field still empty there that the file has a value for,
/// when the profile rules take it (an impossible height is left out, the rest still filled). Both engines
/// read which fields are empty inside the import's transaction, write what this holds (nil: leave it) and
/// report `filled`.
public struct ProfileFill: Sendable, Equatable {
    public var birthDate: Day?
    public var sex: Sex?
    public var heightCm: Double?

    public init(birthDate: Day?, sex: Sex?, heightCm: Double?,
                empty: (birthDate: Bool, sex: Bool, heightCm: Bool), today: Day) {
        func acceptable(_ profile: Profile) -> Bool { (try? ProfileRules.check(profile, today: today)) != nil }
        self.birthDate = empty.birthDate ? birthDate.flatMap { acceptable(Profile(birthDate: $0)) ? $0 : nil } : nil
        self.sex = empty.sex ? sex : nil
        self.heightCm = empty.heightCm ? heightCm.flatMap { acceptable(Profile(heightCm: $0)) ? $0 : nil } : nil
    }

    /// The fields filled, in the import report's words and order.
    public var filled: [String] {
        (birthDate == nil ? [] : ["date of birth"]) + (sex == nil ? [] : ["sex"]) + (heightCm == nil ? [] : ["height"])
    }
}
