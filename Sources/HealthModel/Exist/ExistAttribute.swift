import Foundation

/// How an insight attribute is written through Exist's API: the device type and reading field its values
/// become, and the conversion from Exist's units (kJ, fractions) back to hmon's (kcal, per cent).
public struct ExistWriteTarget: Sendable, Equatable {
    public var deviceType: BuiltInDeviceType
    public var field: String
    /// Exist's value → the reading field's value.
    public var toReading: @Sendable (Double) -> Double

    public static func == (a: ExistWriteTarget, b: ExistWriteTarget) -> Bool { a.deviceType == b.deviceType && a.field == b.field }
}

extension InsightAttribute {
    /// The reading a written value becomes: the kind the table marks as written by Exist for this
    /// attribute (`ReadingKind.writtenByExist`), on the first device type that carries it. Nil for
    /// attributes hmon computes from others (`net_energy`, `resting_energy`, `weigh_ins`) and for
    /// `welltory_stress`, Welltory's measured 0–1 score and not Exist's self-rated 1–9 scale.
    public var writeTarget: ExistWriteTarget? {
        guard let kind = ReadingKind.allCases.first(where: { $0.insight == self && $0.writtenByExist }),
              let deviceType = kind.deviceTypes.first else { return nil }
        let attribute = self
        return ExistWriteTarget(deviceType: deviceType, field: kind.field) { attribute.readingValue(fromExist: $0) }
    }

    /// A value in Exist's units as hmon keeps it: the inverse of `existValue` (kJ to kcal, a fraction to per cent).
    public func readingValue(fromExist value: Double) -> Double {
        if isEnergy { return value / EnergyUnit.kJPerKcal }
        if isPercentage { return value * 100 }
        return value
    }

    /// Why an attribute cannot be written, for the `validation` error.
    public var whyNotWritable: String {
        self == .stress
            ? "welltory_stress is Welltory's measured stress (0–1), not Exist's 1–9 stress_level rating: it cannot be written"
            : "\(name) is computed by hmon from other readings: write those instead"
    }

    /// Exist's label of the group.
    public var groupLabel: String {
        switch group {
        case "health": "Health"
        case "food": "Food and drink"
        case "sleep": "Sleep"
        case "activity": "Activity"
        default: "Mood"
        }
    }

    /// The group's place in Exist's lists.
    public var groupPriority: Int {
        switch group {
        case "activity": 1
        case "health": 5
        case "food": 7
        default: 2
        }
    }

    /// The attribute's place within its group, from 1, as Exist numbers an attribute's `priority`.
    public var existPriority: Int {
        (Self.allCases.filter { $0.group == group }.firstIndex(of: self) ?? 0) + 1
    }

    /// A value in Exist's units (`existValue`) as Exist shows it: whole for an integer attribute, else to
    /// six decimals. That keeps every value a client sends (Exist's own carry fewer) and drops the binary
    /// residue that unit conversion and averaging leave (71.39999999999999 → 71.4, 999.9999999998 kJ → 1000).
    public func existShown(_ value: Double) -> Double {
        let converted = existValue(value)
        guard converted.isFinite else { return converted }
        if existValueType == 0 { return converted.rounded() }
        let scaled = (converted * 1e6).rounded()
        return scaled.isFinite ? scaled / 1e6 : converted
    }

    /// Words for `value_type`, as Exist gives them.
    public var existValueTypeDescription: String {
        switch existValueType {
        case 0: "Integer"
        case 3: "Period (min)"
        case 5: "Percentage"
        case 6: "Time of day (min from midday)"
        default: "Decimal"
        }
    }

    /// A value sent in Exist's units, checked for what Exist's value type allows (a fraction 0–1 for a
    /// percentage, nothing negative): the reading rules then check the converted value.
    public func checkExistValue(_ value: Double) throws {
        guard value.isFinite, abs(value) < 1e9 else { throw HealthError.invalidValue("\(name) must be a number below a billion") }
        if existValueType == 0, value != value.rounded() {
            throw HealthError.invalidValue("\(name) \(formatted(value)) is not a whole number: \(name) is an integer attribute")
        }
        if existValueType == 5, !(0...1).contains(value) {
            throw HealthError.invalidValue("\(name) \(formatted(value)) is not a fraction 0–1: send 0.25 for 25 %")
        }
        if value < 0 { throw HealthError.invalidValue("\(name) \(formatted(value)) is negative") }
    }

    /// The attribute Exist's template or name `text` stands for.
    public init?(existName text: String) {
        self.init(rawValue: text)
    }
}

/// Exist's OAuth scopes: `<group>_read` and `<group>_write` per attribute group, and `manual_*`.
public enum ExistScope {
    /// Exist's groups.
    public static let groups = ["activity", "productivity", "mood", "sleep", "workouts", "events", "finance", "food",
                                "health", "location", "media", "social", "weather", "custom", "manual"]

    public static func read(_ group: String) -> String { "\(group)_read" }
    public static func write(_ group: String) -> String { "\(group)_write" }

    /// Every Exist scope name.
    public static let all: Set<String> = Set(groups.flatMap { [read($0), write($0)] })

    /// What a read-only personal token may do: every group's `_read`.
    public static let allRead: String = groups.map(read).joined(separator: ",")
}
