import Foundation

/// The kinds of figure hmon shows, each with one unit and one rounding wherever it appears: the screens,
/// the command line's text and its JSON all write a quantity through `QuantityText`, so a weight is never
/// "72.4 kg" on one screen, "159.61 lb" in a list and "73" in a summary.
public enum QuantityKind: Sendable, Equatable {
    /// Body mass (stored in kg), in the person's kg or lb, one decimal: a scale's resolution is 0.1.
    case mass
    /// A weekly rate of mass (kg/week), two decimals: 0.99 lb/week is not "1 lb/week".
    case massRate
    /// Energy (stored in kcal), in the person's kcal or kJ, whole, with thousands separators.
    case energy
    /// Steps, whole, with thousands separators.
    case steps
    /// Heart rate in beats a minute, whole.
    case heartRate
    /// An HRV figure in ms (RMSSD, SDNN), one decimal.
    case milliseconds
    /// A percentage (body fat), one decimal.
    case percent
    /// A weekly change of a percentage, in percentage points (23.0 % to 22.9 % is −0.1), two decimals as
    /// the weight's rate: body fat moves a tenth of a point in a few weeks.
    case percentRate
    /// A number without a unit (BMI), one decimal.
    case plain
    /// A stretch of time in whole minutes (a night's sleep, kept in minutes).
    case minutes
    /// A score out of 100 (a ring's readiness), whole and without a unit: the source gives it whole.
    case score
    /// A blood pressure in mmHg, whole: a cuff reads whole millimetres.
    case pressure
    /// Breaths a minute, one decimal (a watch's night average, 14.6).
    case breathingRate
    /// A body temperature (kept in °C), in °C or °F as the person reads units, one decimal, as a thermometer
    /// shows it.
    case temperature
    /// A temperature's change from the person's own baseline (kept in °C), in °C or °F as a difference, two
    /// decimals (a wrist's −0.23).
    case temperatureChange
}

/// How one person's figures are written: their units, and per kind the decimals, separators and sign.
public struct QuantityText: Sendable, Equatable {
    public var massUnit: MassUnit
    public var energyUnit: EnergyUnit

    public init(massUnit: MassUnit = .kg, energyUnit: EnergyUnit = .kcal) {
        self.massUnit = massUnit
        self.energyUnit = energyUnit
    }

    public init(_ profile: Profile) { self.init(massUnit: profile.massUnit, energyUnit: profile.energyUnit) }

    /// °F for a person who weighs in pounds, °C otherwise: the profile's one choice of units (`TemperatureUnit`).
    public var temperatureUnit: TemperatureUnit { TemperatureUnit(following: massUnit) }

    public static func decimals(_ kind: QuantityKind) -> Int {
        switch kind {
        case .mass, .milliseconds, .percent, .plain, .breathingRate, .temperature: 1
        case .massRate, .percentRate, .temperatureChange: 2
        case .energy, .steps, .heartRate, .minutes, .score, .pressure: 0
        }
    }

    /// The unit the kind is shown in: "lb", "kJ", "steps", "" for plain numbers.
    public func unit(_ kind: QuantityKind) -> String {
        switch kind {
        case .mass: massUnit.rawValue
        case .massRate: "\(massUnit.rawValue)/week"
        case .energy: energyUnit.rawValue
        case .steps: "steps"
        case .heartRate: "bpm"
        case .milliseconds: "ms"
        case .percent: "%"
        case .percentRate: "pt/week"
        case .plain, .score: ""
        case .minutes: "min"
        case .pressure: "mmHg"
        case .breathingRate: "breaths/min"
        case .temperature, .temperatureChange: temperatureUnit.rawValue
        }
    }

    /// The stored value (kg, kcal, …) in the shown unit, rounded as shown: what JSON carries, so a
    /// script reads the figure the screen shows (never 73.80000000000001).
    public func shownValue(_ stored: Double, _ kind: QuantityKind) -> Double {
        let converted: Double = switch kind {
        case .mass, .massRate: massUnit.fromKg(stored)
        case .energy: energyUnit.fromKcal(stored)
        case .temperature: temperatureUnit.fromCelsius(stored)
        case .temperatureChange: temperatureUnit.fromCelsiusDifference(stored)
        default: stored
        }
        guard converted.isFinite, abs(converted) < 1e15 else { return converted }
        let decimals = Self.decimals(kind)
        // Whole figures round half away from zero (1,886.5 kcal is 1,887), as the screens always have;
        // decimals take printf's rounding of the binary value (26.25 is 26.249999…, so 26.2), as the
        // screens' tables do. The text is made from this value, so the JSON's figure is the text's.
        if decimals == 0 { return converted.rounded() }
        return Double(String(format: "%.\(decimals)f", converted)) ?? converted
    }

    /// The number alone: "1,234", "72.4", "−0.35"; `signed` writes "+" before a positive one. `grouped`
    /// false leaves out the thousands separators, for a table whose column names the unit and has no room.
    public func number(_ stored: Double, _ kind: QuantityKind, signed: Bool = false, grouped: Bool = true) -> String {
        number(shown: shownValue(stored, kind), kind, signed: signed, grouped: grouped)
    }

    /// The sum of `stored` as the figures beside it are shown: each rounded as shown, then added, so a week's
    /// total agrees with its days to the last digit (−1,895, not −1,896 from the unrounded sum).
    public func textOfSum(_ stored: [Double], _ kind: QuantityKind, signed: Bool = false) -> String {
        let sum = stored.reduce(0) { $0 + shownValue($1, kind) }
        let unit = unit(kind)
        let figure = number(shown: sum, kind, signed: signed, grouped: true)
        return unit.isEmpty ? figure : "\(figure) \(unit)"
    }

    /// A value already in the shown unit and rounding, written as `number` writes it.
    private func number(shown value: Double, _ kind: QuantityKind, signed: Bool, grouped: Bool) -> String {
        guard value.isFinite else { return "—" }
        let decimals = Self.decimals(kind)
        let fixed = String(format: "%.\(decimals)f", abs(value))
        let parts = fixed.split(separator: ".", maxSplits: 1)
        var integer = String(parts[0])
        if grouped, kind == .energy || kind == .steps { integer = Self.grouped(integer) }
        let body = parts.count > 1 ? integer + "." + parts[1] : integer
        let isZero = !fixed.contains { $0 != "0" && $0 != "." }
        if isZero { return body }
        if value < 0 { return "−" + body }
        return signed ? "+" + body : body
    }

    /// The number and its unit: "1,234 kJ", "72.4 kg", "8,283 steps", "26.5 %".
    public func text(_ stored: Double, _ kind: QuantityKind, signed: Bool = false) -> String {
        let unit = unit(kind)
        return unit.isEmpty ? number(stored, kind, signed: signed) : "\(number(stored, kind, signed: signed)) \(unit)"
    }

    /// "1234567" → "1,234,567".
    private static func grouped(_ digits: String) -> String {
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}

extension Field {
    /// How a reading field's figures are written (`ReadingKind.quantity`); nil for fields without a kind
    /// (text, scores, distances).
    public static func quantityKind(of name: String) -> QuantityKind? {
        ReadingKind(field: name)?.quantity
    }
}
