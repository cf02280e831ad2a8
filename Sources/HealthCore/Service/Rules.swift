import Foundation

/// What makes an account acceptable. Shared by every store, so a name refused locally is refused remotely.
public enum AccountRules {
    public static let minimumPasswordLength = 4
    public static let maximumNameLength = 64

    public static func check(name: String, email: String, password: String) throws {
        try check(name: name)
        let email = email.trimmingCharacters(in: .whitespaces)
        if !email.isEmpty, !email.contains("@") || email.contains(" ") {
            throw HealthError.invalidValue("the email \"\(email)\" is not an email address: pass one like name@example.com")
        }
        try check(password: password)
    }

    public static func check(name: String) throws {
        if name.isEmpty { throw HealthError.invalidValue("the user name is empty: choose a name such as \"alice\"") }
        if name.count > maximumNameLength {
            throw HealthError.invalidValue("the user name is longer than \(maximumNameLength) characters: choose a shorter one")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-@"))
        if name.unicodeScalars.contains(where: { !allowed.contains($0) }) {
            throw HealthError.invalidValue("the user name \"\(name)\" may hold only letters, digits and . _ - @")
        }
    }

    public static func check(password: String) throws {
        if password.count < minimumPasswordLength {
            throw HealthError.invalidValue("the password is shorter than \(minimumPasswordLength) characters: choose a longer one")
        }
    }
}

/// What makes a profile humanly possible.
public enum ProfileRules {
    public static let heightCm = 50.0...272.0
    public static let leanMassKg = 1.0...650.0

    public static func check(_ profile: Profile, today: Day) throws {
        if let height = profile.heightCm, !heightCm.contains(height) {
            throw HealthError.invalidValue("height \(formatted(height)) cm is outside 50–272 cm: pass it in centimetres")
        }
        if let lean = profile.leanMassKg, !leanMassKg.contains(lean) {
            throw HealthError.invalidValue("lean mass \(formatted(lean)) kg is outside 1–650 kg")
        }
        if let goal = profile.goalKg, !ReadingRules.weightKg.contains(goal) {
            throw HealthError.invalidValue("goal \(formatted(goal)) kg is outside 1–650 kg: check the number and its unit")
        }
        if let born = profile.birthDate {
            if born > today { throw HealthError.invalidValue("birth date \(born) is in the future: pass YYYY-MM-DD") }
            if born.year < 1900 { throw HealthError.invalidValue("birth date \(born) is before 1900: pass YYYY-MM-DD") }
        }
    }
}

/// What a reading must be to be stored, and how it is stored: the one rule that the command line, the
/// dashboard's prompts (through `HealthService.post`), the REST server and the importer all go through,
/// so a value one of them accepts, rounds or refuses, every other one treats the same way.
public enum ReadingRules {
    public static let weightKg = 1.0...650.0
    /// Energies per reading, kcal: not negative, below 50,000.
    public static let energyKcal = 0.0..<50_000.0
    static let energyFields: Set<String> = [Field.activeEnergy, Field.basalEnergy, Field.calories]

    /// A reading's data as it is stored, after checking it against its device type's manifest and the
    /// sane ranges: numbers in `Integer` fields rounded to the nearest whole number (a step count of
    /// 72.6 is 73 steps), every other value as given. Throws `.invalidValue` naming the field.
    public static func accepted(_ data: [String: FieldValue], manifest: Manifest, typeName: String) throws -> [String: FieldValue] {
        if data.isEmpty { throw HealthError.invalidValue("the reading has no data: pass at least one field") }
        var stored = data
        for (name, value) in data.sorted(by: { $0.key < $1.key }) {
            guard let spec = manifest.field(name) else {
                let known = manifest.fields.map(\.name).joined(separator: ", ")
                throw HealthError.invalidValue("a \(typeName) has no field \"\(name)\": its fields are \(known)")
            }
            switch (spec.type, value) {
            case (.string, .text(let text)): try HRVFields.check(field: name, text: text)
            case (.string, .number):
                throw HealthError.invalidValue("\(name) must be text, not a number")
            case (.double, .text), (.integer, .text):
                throw HealthError.invalidValue("\(name) must be a number, not text")
            case (.double, .number(let n)), (.integer, .number(let n)):
                stored[name] = .number(try accepted(n, for: spec))
            }
        }
        return stored
    }

    /// One number as it is stored in the field `spec`: finite, within the field's range (only the
    /// fields hmon interprets have one), and whole when the field is an `Integer`.
    public static func accepted(_ value: Double, for spec: FieldSpec) throws -> Double {
        guard value.isFinite else { throw HealthError.invalidValue("\(spec.name) must be a finite number") }
        let stored = spec.type == .integer ? value.rounded() : value
        try check(field: spec.name, value: stored)
        return stored
    }

    /// Checks one numeric field's range (only the fields hmon interprets have one).
    static func check(field: String, value: Double) throws {
        try HRVFields.check(field: field, value: value)
        if field == Field.weight, !weightKg.contains(value) {
            throw HealthError.invalidValue("weight \(formatted(value)) kg is outside 1–650 kg: check the number and its unit")
        }
        if energyFields.contains(field), !energyKcal.contains(value) {
            throw HealthError.invalidValue(value < 0
                ? "\(field) \(formatted(value)) kcal is negative: pass an amount of 0 or more"
                : "\(field) \(formatted(value)) kcal is not below 50,000 kcal: check the number and its unit")
        }
    }
}

/// A number as a person writes it: no trailing ".0", at most two decimals.
func formatted(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(format: "%.2f", value).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
}
