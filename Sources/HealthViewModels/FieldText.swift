import HealthCore
import HealthModel

/// The units a person reads in, from their profile: every screen converts stored kg and kcal with these, so
/// one preference holds everywhere (the devices table as much as the weights chart).
public struct DisplayUnits: Sendable, Equatable {
    public var mass: MassUnit
    public var energy: EnergyUnit

    public init(mass: MassUnit, energy: EnergyUnit) {
        self.mass = mass
        self.energy = energy
    }

    public init(_ profile: Profile) { self.init(mass: profile.massUnit, energy: profile.energyUnit) }

    /// As stored: kg and kcal.
    public static let stored = DisplayUnits(mass: .kg, energy: .kcal)

    /// A stored value in `unit` ("kg", "kcal") as this person reads it, and the unit then shown.
    func convert(_ value: Double, unit: String?) -> (Double, String?) {
        switch unit {
        case "kg" where mass == .lb: (MassUnit.lb.fromKg(value), "lb")
        case "kcal" where energy == .kJ: (EnergyUnit.kJ.fromKcal(value), "kJ")
        default: (value, unit)
        }
    }
}

/// How a screen names a reading's fields: "Body fat 26.5 %", "Heart rate 62 bpm", "Vegetable curry";
/// never the field's key or a manifest's sentence ("what was eaten").
enum FieldText {
    /// Labels for the fields hmon's own device types carry: each kind's (`ReadingKind.label`), and the HRV
    /// meter's figures no kind describes.
    static let labels: [String: String] = Dictionary(uniqueKeysWithValues: ReadingKind.allCases.map { ($0.field, $0.label) })
        .merging([
            Field.energy: "Energy", Field.productivity: "Productivity", Field.totalPower: "Total power", Field.lfPower: "LF power",
            Field.hfPower: "HF power", Field.pnn50: "pNN50", Field.stressIndex: "Stress index",
        ]) { kind, _ in kind }

    /// Fields that are bookkeeping rather than something a person measured: not shown in a reading's line.
    static let hidden: Set<String> = [Field.shareToken, Field.stressColor, Field.energyColor, Field.productivityColor, Field.source]

    /// A field's label: the table's, else the key split into words ("bodyTemperature" → "Body temperature").
    static func label(of field: String) -> String {
        if let label = labels[field] { return label }
        var words = ""
        for character in field {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(contentsOf: words.isEmpty ? String(character).uppercased() : String(character).lowercased())
        }
        return words.isEmpty ? field : words
    }

    /// Units as people write them: "bpm" rather than SAMI's "b/min".
    static func unit(_ unit: String?) -> String? {
        unit == "b/min" ? "bpm" : unit
    }

    /// One field as a reading's line shows it. A text field (what was eaten, a comment) is its own text,
    /// with a capital: "Vegetable curry".
    static func text(of field: String, value: FieldValue, unit: String?, units: DisplayUnits = .stored) -> String {
        if case .text(let words) = value {
            // The reason alone ("no variability") would not say what was refused.
            if field == Field.beatsRefused { return "Beats refused: " + words }
            return words.prefix(1).uppercased() + words.dropFirst()
        }
        return "\(label(of: field)) \(quantity(value, unit: unit, units: units))"
    }

    /// A field's value with its unit, in the one format of its quantity: masses, percentages and intervals
    /// with one decimal ("70.0 kg" beside "69.8 kg"), energy and heart rate whole ("32 kcal").
    static func quantity(_ value: FieldValue, unit: String?, units: DisplayUnits = .stored) -> String {
        guard let stored = value.number else { return Formats.fieldValue(value, unit: nil) }
        let (number, converted) = units.convert(stored, unit: unit)
        let shownUnit = self.unit(converted)
        let digits: String
        switch shownUnit {
        case "kg", "lb", "%", "ms", "m": digits = Formats.oneDecimal(number)
        case "kcal", "kJ", "bpm": digits = Formats.whole(number)
        default: digits = Formats.fieldValue(.number(number), unit: nil)
        }
        return digits + (shownUnit.map { " \($0)" } ?? "")
    }

    /// A reading's fields in manifest order, then any others by key, without the bookkeeping ones.
    static func parts(of message: Message, manifest: Manifest, units: DisplayUnits = .stored) -> [String] {
        var parts: [String] = []
        for field in manifest.fields where !hidden.contains(field.name) {
            guard let value = message.data[field.name] else { continue }
            parts.append(text(of: field.name, value: value, unit: field.unit, units: units))
        }
        for key in message.data.keys.sorted() where manifest.field(key) == nil && !hidden.contains(key) {
            parts.append(text(of: key, value: message.data[key]!, unit: nil))
        }
        return parts
    }
}
