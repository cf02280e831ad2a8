import Foundation

/// Welltory's results as it appends them to a callback URL (`?stress=0.32&energy=0.75&…&stress_c=green`),
/// turned into an HRV meter reading. Shared by `hmon add hrv --from-url` and `hmon serve`'s callback, so a
/// URL one accepts the other accepts.
public enum WelltoryResult {
    /// Welltory's parameter → hmon's field, for the numbers.
    public static let numberParameters: [(parameter: String, field: String)] = [
        ("stress", Field.stress), ("energy", Field.energy), ("productivity", Field.productivity),
        ("rmssd", Field.rmssd), ("sdnn", Field.sdnn), ("power", Field.totalPower),
    ]
    /// Welltory's parameter → hmon's field, for the colours (green good, yellow normal, red bad, unknown).
    public static let colorParameters: [(parameter: String, field: String)] = [
        ("stress_c", Field.stressColor), ("energy_c", Field.energyColor), ("productivity_c", Field.productivityColor),
    ]

    /// The reading a callback's query parameters describe. Unknown parameters are ignored (Welltory may
    /// add some); so is a known one with no value (`productivity=`, `productivity=null`: Welltory leaves
    /// out what it did not measure, and the others are still a measurement). A known one that is repeated,
    /// not a number, or out of range throws `.invalidValue` naming it, as does a query with no result at all.
    public static func reading(from items: [(name: String, value: String)]) throws -> [String: FieldValue] {
        var data: [String: FieldValue] = [Field.source: .text(HRVSource.welltory.rawValue)]
        var seen: Set<String> = []
        for (name, value) in items {
            guard let field = field(forParameter: name) else { continue }
            guard seen.insert(name).inserted else {
                throw HealthError.invalidValue("the parameter \(name) is given twice: pass it once")
            }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if noValue.contains(trimmed.lowercased()) { continue }
            let fieldValue: FieldValue
            if colorParameters.contains(where: { $0.parameter == name }) {
                fieldValue = .text(trimmed.lowercased())
            } else if name == "token" {
                fieldValue = .text(token(in: trimmed))
            } else {
                guard let number = NumberText.decimal(trimmed) else {
                    throw HealthError.invalidValue("the parameter \(name)=\(shown(value)) is not a number")
                }
                fieldValue = .number(number)
            }
            do {
                _ = try ReadingRules.accepted([field: fieldValue], manifest: HRVFields.manifest, typeName: "HRV Meter")
            } catch let error as HealthError {
                throw HealthError.invalidValue("the parameter \(name) is refused: \(error.message)")
            }
            data[field] = fieldValue
        }
        guard data.count > 1 else {
            throw HealthError.invalidValue("no Welltory result in the URL: expected stress, energy, productivity, rmssd, sdnn, power")
        }
        return data
    }

    /// The reading a whole callback URL describes, as `hmon add hrv --from-url` is given it.
    public static func reading(fromURL text: String) throws -> [String: FieldValue] {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HealthError.invalidValue("\(shown(text)) is not a URL: pass the whole link Welltory opened, in quotes")
        }
        return try reading(from: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    }

    /// What a link builder writes for a value it does not have (JavaScript's and Python's words for none).
    static let noValue: Set<String> = ["", "null", "undefined", "none", "nan"]

    static func field(forParameter name: String) -> String? {
        if name == "token" { return Field.shareToken }
        return (numberParameters + colorParameters).first { $0.parameter == name }?.field
    }

    /// Welltory's `token` is the share token; accept the whole share link too and keep the token from it.
    static func token(in value: String) -> String {
        guard value.contains("token="), let items = URLComponents(string: value)?.queryItems,
              let token = items.first(where: { $0.name == "token" })?.value else { return value }
        return token
    }

    /// Someone else's text, fit to quote in a message: no control characters, at most 40 characters.
    static func shown(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.map {
            CharacterSet.controlCharacters.contains($0) ? "?" : $0
        }))
        return "\"" + (clean.count > 40 ? String(clean.prefix(39)) + "…" : clean) + "\""
    }
}

/// The links hmon makes for Welltory.
public enum WelltoryLinks {
    /// The link that asks Welltory to measure and then open `callback` with the results appended.
    public static func measurementRequest(callback: String) -> String {
        "https://welltory.com/action/dds/measurement?source=APP&callback=" + percentEncoded(callback)
    }

    /// The page a share token opens.
    public static func share(token: String) -> String {
        "https://app.welltory.com/share-measurement?token=" + percentEncoded(token)
    }

    /// Everything but RFC 3986's unreserved characters escaped, so the callback survives as one parameter.
    static func percentEncoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
