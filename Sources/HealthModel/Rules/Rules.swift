import Foundation
import CheckedNumbers

/// What makes an account acceptable. Shared by every store, so a name refused locally is refused remotely.
public enum AccountRules {
    public static let minimumPasswordLength = 4
    public static let maximumNameLength = 64
    /// Full names and email addresses: long enough for any real one, short enough for a screen line.
    public static let maximumFullNameLength = 100
    public static let maximumEmailLength = 254

    public static func check(name: String, email: String, password: String) throws {
        try check(name: name)
        try check(email: email)
        try check(password: password)
    }

    /// An email address, optional: empty is fine, anything else must look like one.
    public static func check(email: String) throws {
        let email = email.trimmingCharacters(in: .whitespaces)
        if email.count > maximumEmailLength {
            throw HealthError.invalidValue("the email is longer than \(maximumEmailLength) characters: pass a shorter address")
        }
        try TextRules.check(email, as: "the email")
        if !email.isEmpty, !email.contains("@") || email.contains(" ") {
            throw HealthError.invalidValue("the email \"\(email)\" is not an email address: pass one like name@example.com")
        }
    }

    /// The person's full name: at most `maximumFullNameLength` characters, nothing that drives a terminal.
    public static func check(fullName: String) throws {
        if fullName.count > maximumFullNameLength {
            throw HealthError.invalidValue("the full name is longer than \(maximumFullNameLength) characters: pass a shorter one")
        }
        try TextRules.check(fullName, as: "the full name")
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

    /// What a password read from bytes that are not UTF-8 is refused with (`PasswordReader`, the server's
    /// form and JSON decoding): decoding them would turn different byte strings into one password.
    public static let notUTF8 = "the password is not valid UTF-8 text: type it again in a UTF-8 terminal or file"

    public static func check(password: String) throws {
        try checkEncoding(password: password)
        if password.count < minimumPasswordLength {
            throw HealthError.invalidValue("the password is shorter than \(minimumPasswordLength) characters: choose a longer one")
        }
    }

    /// A password holding U+FFFD came from bytes that were not UTF-8 and were decoded with replacement
    /// (a terminal, a form or a JSON body in another encoding): refused, on sign-in as on sign-up.
    public static func checkEncoding(password: String) throws {
        if password.unicodeScalars.contains(TextRules.replacement) { throw HealthError.invalidValue(notUTF8) }
    }
}

/// What makes a profile humanly possible.
public enum ProfileRules {
    public static let heightCm = 50.0...272.0
    public static let leanMassKg = 1.0...650.0
    /// A night's need, minutes: 3 to 14 hours (the ranges of the sleep-need literature run 4–11 h; some room either side).
    public static let sleepNeedMinutes = 180.0...840.0

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
        if let need = profile.sleepNeedMinutes, !sleepNeedMinutes.contains(need) {
            throw HealthError.invalidValue("sleep need \(formatted(need / 60)) h is outside 3–14 h: pass hours, like --sleep-need-hours 7.5")
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
    public static let weightKg = ReadingKind.weight.range!
    /// Energies per reading, kcal: not negative, below 50,000.
    public static let energyKcal = 0.0..<50_000.0
    static let energyFields = Set(ReadingKind.allCases.filter { $0.quantity == .energy }.map(\.field))

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
            case (.string, .text(let text)):
                // Control and format characters: one rule for both engines (PostgreSQL cannot store NUL) and
                // for every terminal that later prints the text.
                try TextRules.check(text, as: name)
                try HRVFields.check(field: name, text: text)
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
        var stored = spec.type == .integer ? value.rounded() : value
        // -0 (typed, or -0.4 rounded) is stored as 0: "-0" means nothing to anyone reading it back.
        if stored == 0 { stored = 0 }
        try check(field: spec.name, value: stored)
        return stored
    }

    /// The range of every other numeric field of the built-in device types, in the manifest's unit: what a
    /// body or a sensor can produce, with room to spare (`ReadingKind.range`). The screens, the insights and
    /// `/api/2/` compute with these numbers, so a value far outside (a `steps` of 1e300) is refused here, on
    /// every way in.
    public static let ranges: [String: (range: ClosedRange<Double>, unit: String)] = Dictionary(
        uniqueKeysWithValues: ReadingKind.allCases.compactMap { kind in
            guard kind != .weight, let range = kind.range else { return nil }
            return (kind.field, (range, kind.rangeUnit))
        })

    /// Fields hmon does not interpret (a device type someone defined) still get a bound, far beyond any
    /// measurement, so every stored number stays one that arithmetic and JSON can carry.
    public static let anyNumber = -1e12...1e12

    /// The range a numeric field's values must lie in (the upper bound of energies is itself refused);
    /// nil for a field with no bound of its own (then `anyNumber` holds).
    public static func range(of field: String) -> ClosedRange<Double>? {
        if field == Field.weight { return weightKg }
        if energyFields.contains(field) { return energyKcal.lowerBound...energyKcal.upperBound }
        if let range = HRVFields.range(of: field) { return range }
        return ranges[field]?.range
    }

    /// Checks one numeric field's range.
    public static func check(field: String, value: Double) throws {
        try HRVFields.check(field: field, value: value)
        if field == Field.weight, !weightKg.contains(value) {
            throw HealthError.invalidValue("weight \(formatted(value)) kg is outside 1–650 kg: check the number and its unit")
        }
        if energyFields.contains(field), !energyKcal.contains(value) {
            throw HealthError.invalidValue(value < 0
                ? "\(field) \(formatted(value)) kcal is negative: pass an amount of 0 or more"
                : "\(field) \(formatted(value)) kcal is not below 50,000 kcal: check the number and its unit")
        }
        if let rule = ranges[field], !rule.range.contains(value) {
            let bounds = "\(formatted(rule.range.lowerBound))–\(formatted(rule.range.upperBound)) \(rule.unit)"
            throw HealthError.invalidValue("\(field) \(formatted(value)) is outside \(bounds): check the number and its unit")
        }
        if !anyNumber.contains(value) {
            throw HealthError.invalidValue("\(field) \(formatted(value)) is beyond ±1e12: no measurement is that large")
        }
    }
}

/// A number as a person writes it: a whole number without decimals ("650"), any other with one or two
/// ("72.45", "72.4", and "650.0" for 650.001, so it never reads as exactly 650); never "650." or "-0".
func formatted(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-infinity" : "infinity" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(rounding: value)) }
    // Beyond that no digit after the point means anything, and 1e308 written out is 309 digits.
    if abs(value) >= 1e15 { return String(format: "%.3g", value) }
    var text = String(format: "%.2f", value)
    if text.hasSuffix("0") { text.removeLast() }
    return text
}
