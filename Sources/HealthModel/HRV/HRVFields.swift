import Foundation

/// The fields of an HRV measurement: Welltory's callback parameters under hmon's names, and what hmon
/// computes itself from beat-to-beat intervals.
extension Field {
    public static let stress = "stress"                      // 0–1, Welltory
    public static let energy = "energy"                      // 0–1, Welltory's "energy" (not kcal)
    public static let productivity = "productivity"          // 0–1, Welltory
    public static let rmssd = "rmssd"                        // ms
    public static let sdnn = "sdnn"                          // ms
    public static let totalPower = "totalPower"              // ms², Welltory's "power"
    public static let lfPower = "lfPower"                    // ms²
    public static let hfPower = "hfPower"                    // ms²
    public static let pnn50 = "pnn50"                        // %
    public static let stressIndex = "stressIndex"            // Baevsky's stress index
    public static let shareToken = "shareToken"              // Welltory's share token
    public static let stressColor = "stressColor"            // green / yellow / red / unknown
    public static let energyColor = "energyColor"
    public static let productivityColor = "productivityColor"
    public static let source = "source"                      // "welltory", "beats", "manual"
    /// Apple's own SDNN (ms), the value of the Apple Health record a watch's beat list came in: a figure of
    /// its own beside the RMSSD and SDNN hmon computes from the beats, never mixed with them.
    public static let appleSDNN = "appleSDNN"
    /// Why hmon refused the record's beat list ("no variability", `BeatListQuality.Refusal.reason`): the
    /// measurement keeps Apple's SDNN and has no beat figures, so it never enters the baseline or insights.
    public static let beatsRefused = "beatsRefused"
    /// How many measurements a mean stands for: a Health Connect bucket's `sample_count`. A late part of a
    /// window already kept is merged into it weighted by this, as Life Dashboard Companion's docs ask.
    public static let samples = "samples"
}

/// The HRV meter's manifest and the ranges of its fields, in one place so the manifest, the rule and
/// the messages that name a range cannot drift apart.
public enum HRVFields {
    /// Welltory's three scores are fractions: 0.32 is 32 %.
    public static let scoreRange = 0.0...1.0
    /// Interval statistics in ms: never negative; beyond 1,000 ms no measured heart varies.
    public static let intervalMsRange = 0.0...1_000.0
    public static let powerRange = 0.0...1_000_000.0
    public static let colorWords: Set<String> = ["green", "yellow", "red", "unknown"]

    public static let scoreFields: Set<String> = [Field.stress, Field.energy, Field.productivity]
    public static let intervalFields: Set<String> = [Field.rmssd, Field.sdnn, Field.appleSDNN]
    public static let powerFields: Set<String> = [Field.totalPower, Field.lfPower, Field.hfPower]
    public static let colorFields: Set<String> = [Field.stressColor, Field.energyColor, Field.productivityColor]

    public static let manifest = Manifest(fields: [
        FieldSpec(name: Field.stress, type: .double, unit: nil, description: "stress, 0–1 (Welltory)"),
        FieldSpec(name: Field.energy, type: .double, unit: nil, description: "energy, 0–1 (Welltory)"),
        FieldSpec(name: Field.productivity, type: .double, unit: nil, description: "productivity, 0–1 (Welltory)"),
        FieldSpec(name: Field.rmssd, type: .double, unit: "ms", description: "RMSSD"),
        FieldSpec(name: Field.sdnn, type: .double, unit: "ms", description: "SDNN"),
        FieldSpec(name: Field.totalPower, type: .double, unit: "ms²", description: "total power"),
        FieldSpec(name: Field.lfPower, type: .double, unit: "ms²", description: "LF power, 0.04–0.15 Hz"),
        FieldSpec(name: Field.hfPower, type: .double, unit: "ms²", description: "HF power, 0.15–0.4 Hz"),
        FieldSpec(name: Field.pnn50, type: .double, unit: "%", description: "pNN50"),
        FieldSpec(name: Field.stressIndex, type: .double, unit: nil, description: "Baevsky's stress index"),
        FieldSpec(name: Field.heartRate, type: .integer, unit: "b/min"),
        FieldSpec(name: Field.shareToken, type: .string, unit: nil, description: "Welltory share token"),
        FieldSpec(name: Field.stressColor, type: .string, unit: nil, description: "green, yellow, red or unknown"),
        FieldSpec(name: Field.energyColor, type: .string, unit: nil, description: "green, yellow, red or unknown"),
        FieldSpec(name: Field.productivityColor, type: .string, unit: nil, description: "green, yellow, red or unknown"),
        FieldSpec(name: Field.source, type: .string, unit: nil, description: "welltory, beats or manual"),
        FieldSpec(name: Field.appleSDNN, type: .double, unit: "ms", description: "SDNN as Apple Health recorded it"),
        FieldSpec(name: Field.beatsRefused, type: .string, unit: nil, description: "why hmon refused the record's beat list"),
        // Since v26: a bucketed mean's sample count, what a late part of its window is weighed against.
        FieldSpec(name: Field.samples, type: .integer, unit: nil, description: "measurements the RMSSD is the mean of"),
    ])

    /// A sample count hmon keeps: a whole number from 1 to a day of one a second.
    public static func isSampleCount(_ value: Double) -> Bool {
        (1.0...86_400.0).contains(value) && value == value.rounded()
    }

    /// The range of a numeric HRV field with a bounded range; nil for the others.
    static func range(of field: String) -> ClosedRange<Double>? {
        if scoreFields.contains(field) { return scoreRange }
        if intervalFields.contains(field) { return intervalMsRange }
        if powerFields.contains(field) { return powerRange }
        if field == Field.pnn50 { return 0...100 }
        return nil
    }

    /// Checks one numeric HRV field's range; other fields pass.
    static func check(field: String, value: Double) throws {
        if scoreFields.contains(field), !scoreRange.contains(value) {
            throw HealthError.invalidValue("\(field) \(formatted(value)) is outside 0–1: pass a fraction such as 0.32")
        }
        if intervalFields.contains(field), !intervalMsRange.contains(value) {
            throw HealthError.invalidValue("\(field) \(formatted(value)) ms is outside 0–1000 ms")
        }
        if powerFields.contains(field), !powerRange.contains(value) {
            throw HealthError.invalidValue("\(field) \(formatted(value)) ms² is outside 0–1,000,000 ms²")
        }
        if field == Field.pnn50, !(0.0...100.0).contains(value) {
            throw HealthError.invalidValue("pnn50 \(formatted(value)) % is outside 0–100 %")
        }
        if field == Field.samples, !isSampleCount(value) {
            throw HealthError.invalidValue("samples \(formatted(value)) is not a whole number from 1 to 86,400")
        }
        if field == Field.stressIndex, value < 0 {
            throw HealthError.invalidValue("stressIndex \(formatted(value)) is negative")
        }
    }

    /// A share token goes into a link and onto the screen, so it may hold only what needs no escaping.
    private static let tokenCharacters = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~=")

    /// Checks one text HRV field: a colour is one of Welltory's four words; a token is short, plain text.
    static func check(field: String, text: String) throws {
        if colorFields.contains(field), !colorWords.contains(text) {
            throw HealthError.invalidValue("\(field) \(WelltoryResult.shown(text)) is not green, yellow, red or unknown")
        }
        if field == Field.shareToken,
           text.isEmpty || text.count > 200 || text.unicodeScalars.contains(where: { !tokenCharacters.contains($0) }) {
            throw HealthError.invalidValue("shareToken is not a Welltory share token (letters, digits and - _ . ~ =)")
        }
    }
}
