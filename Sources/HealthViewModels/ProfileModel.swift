import Foundation
import HealthCore
import HealthModel

/// The profile form (`p`, and the setup right after an account is created): units, height, birth date,
/// sex and goal weight, the figures the energy balance and BMI need. Choices cycle with Space or ←/→;
/// numbers and dates are typed. Each field is checked as the person leaves it, by the core's own rules,
/// and the form saves through the service, so it works the same on a local store and against a server.
@MainActor
public final class ProfileModel {
    public enum Kind: Sendable, Equatable {
        /// One of a few words; Space and ←/→ move through them.
        case choice([String])
        /// Typed text; `hint` says what goes in ("cm", "YYYY-MM-DD").
        case text(hint: String)
    }

    public struct Field: Sendable, Equatable {
        public var label: String
        public var kind: Kind
        public var input: TextField
    }

    /// First run: the form also makes a food log, and says so in its hint.
    public let isSetup: Bool
    public private(set) var fields: [Field] = []
    public private(set) var focusedIndex = 0
    /// What is wrong, in place under the form.
    public private(set) var problem: String?
    /// True once the form is filled from the stored profile.
    public private(set) var isLoaded = false
    public var isBusy: Bool { loads.isRunning || writes.isRunning }

    public var title: String { isSetup ? "Set up hmon" : "Your profile" }
    public var hint: String {
        isSetup
            ? "Tab next field · Space/←/→ choose · Enter saves and makes a food log · Esc skips"
            : "Tab next field · Space/←/→ choose · Enter saves · Esc cancels"
    }

    private let service: any HealthService
    private let clock: Clock
    private var stored = Profile()
    private let loads = LoadSlot(model: "profile")
    private let writes = WriteSlot(model: "profile")

    public init(service: any HealthService, clock: Clock, isSetup: Bool) {
        self.service = service
        self.clock = clock
        self.isSetup = isSetup
        fill(from: Profile())
    }

    enum Index {
        static let massUnit = 0, energyUnit = 1, height = 2, birthDate = 3, sex = 4, goal = 5
    }

    /// Reads the stored profile into the form.
    public func load() -> Command {
        let service = service
        return Command(loads.load("profile") {
            try await service.profile()
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let profile):
                stored = profile
                fill(from: profile)
                isLoaded = true
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    private func fill(from profile: Profile) {
        let unit = profile.massUnit
        fields = [
            Field(label: "Weight unit", kind: .choice(MassUnit.allCases.map(\.rawValue)),
                  input: TextField(label: "Weight unit", text: unit.rawValue)),
            Field(label: "Energy unit", kind: .choice(EnergyUnit.allCases.map(\.rawValue)),
                  input: TextField(label: "Energy unit", text: profile.energyUnit.rawValue)),
            Self.heightField(text: Self.heightText(profile.heightCm, unit: unit), unit: unit),
            Field(label: "Birth date", kind: .text(hint: "YYYY-MM-DD"),
                  input: TextField(label: "Birth date", text: profile.birthDate?.description ?? "", limit: 10)),
            Field(label: "Sex", kind: .choice(["not set"] + Sex.allCases.map(\.rawValue)),
                  input: TextField(label: "Sex", text: profile.sex?.rawValue ?? "not set")),
            Field(label: "Goal weight", kind: .text(hint: "\(unit.rawValue), optional"),
                  input: TextField(label: "Goal weight", text: profile.goalKg.map { Self.shown(unit.fromKg($0)) } ?? "", limit: 8)),
        ]
    }

    // MARK: Editing

    public func type(_ character: Character) {
        if case .choice = fields[focusedIndex].kind {
            if character == " " { choose(step: 1) }
            return
        }
        fields[focusedIndex].input.insert(character)
    }

    public func deleteBackward() { edit(.deleteBackward) }

    public func edit(_ edit: TextEdit) {
        if case .text = fields[focusedIndex].kind { fields[focusedIndex].input.apply(edit) }
    }

    /// ←/→ on a choice: the previous or next word. The goal follows a change of weight unit, so the number
    /// in it keeps meaning the same weight.
    public func choose(step: Int) {
        guard case .choice(let words) = fields[focusedIndex].kind else { return }
        let current = words.firstIndex(of: fields[focusedIndex].input.text) ?? 0
        let next = words[(current + step + words.count) % words.count]
        let before = massUnit
        fields[focusedIndex].input = TextField(label: fields[focusedIndex].label, text: next)
        if focusedIndex == Index.massUnit, massUnit != before {
            convertGoal(from: before, to: massUnit)
            convertHeight(to: massUnit)
        }
    }

    /// The height in the new unit's form (feet and inches under pounds); a text that is no height stays.
    private func convertHeight(to new: MassUnit) {
        var text = fields[Index.height].input.text
        if let cm = Self.heightCm(text) { text = Self.heightText(cm, unit: new) }
        fields[Index.height] = Self.heightField(text: text, unit: new)
    }

    /// The height field: in feet and inches under pounds, as `hmon profile show` says it; either form is read back.
    private static func heightField(text: String, unit: MassUnit) -> Field {
        Field(label: "Height", kind: .text(hint: unit == .lb ? "ft in, or cm" : "cm"),
              input: TextField(label: "Height", text: text, limit: 12))
    }

    private var massUnit: MassUnit { MassUnit(rawValue: fields[Index.massUnit].input.text) ?? .kg }

    private func convertGoal(from old: MassUnit, to new: MassUnit) {
        let goal = fields[Index.goal]
        var text = goal.input.text
        if let value = Self.number(text) { text = Self.shown(new.fromKg(old.toKg(value))) }
        fields[Index.goal] = Field(label: goal.label, kind: .text(hint: "\(new.rawValue), optional"),
                                   input: TextField(label: goal.label, text: text, limit: 8))
    }

    public func focusNext() { move(by: 1) }
    public func focusPrevious() { move(by: -1) }

    /// Leaving a field checks it; a wrong one keeps the cursor and says why.
    private func move(by step: Int) {
        if let wrong = problem(inField: focusedIndex) {
            problem = wrong
            return
        }
        problem = nil
        focusedIndex = (focusedIndex + step + fields.count) % fields.count
    }

    // MARK: Checking and saving

    /// The profile the form holds, or the first field that is wrong and why.
    func profile() -> Result<Profile, FieldProblem> {
        var profile = stored
        profile.massUnit = massUnit
        profile.energyUnit = EnergyUnit(rawValue: fields[Index.energyUnit].input.text) ?? .kcal
        profile.sex = Sex(rawValue: fields[Index.sex].input.text)
        for index in [Index.height, Index.birthDate, Index.goal] {
            if let wrong = problem(inField: index) { return .failure(FieldProblem(index: index, message: wrong)) }
        }
        let height = fields[Index.height].input.text.trimmingCharacters(in: .whitespaces)
        // A height left as shown keeps its centimetres: "5 ft 10 in" read back is 177.8, not the 178 stored.
        if !MassUnit.allCases.contains(where: { height == Self.heightText(stored.heightCm, unit: $0) }) {
            profile.heightCm = height.isEmpty ? nil : Self.heightCm(height)
        }
        let born = fields[Index.birthDate].input.text.trimmingCharacters(in: .whitespaces)
        profile.birthDate = born.isEmpty ? nil : Day(typed: born)
        let goal = fields[Index.goal].input.text.trimmingCharacters(in: .whitespaces)
        profile.goalKg = Self.number(goal).map { massUnit.toKg($0) }
        return .success(profile)
    }

    struct FieldProblem: Error {
        let index: Int
        let message: String
    }

    /// What is wrong with one field, by the core's profile rules, in the units the form shows; nil when it
    /// is fine or empty (every field may stay empty: the energy screen then says what it still needs).
    func problem(inField index: Int) -> String? {
        let text = fields[index].input.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        switch index {
        case Index.height:
            let example = massUnit == .lb ? "feet and inches, like 5 ft 9 in, or centimetres" : "centimetres, like 175"
            guard let cm = Self.heightCm(text) else { return "height \"\(text)\" is not a height: type \(example)" }
            if !ProfileRules.heightCm.contains(cm) {
                let typed = Self.number(text) != nil ? "\(text) cm" : text   // a bare number is cm
                let range = ProfileRules.heightCm
                let limits = massUnit == .lb
                    ? "\(TypedQuantity.heightText(cm: range.lowerBound, massUnit: .lb))–\(TypedQuantity.heightText(cm: range.upperBound, massUnit: .lb))"
                    : "\(Formats.whole(range.lowerBound))–\(Formats.whole(range.upperBound)) cm"
                return "height \(typed) is outside \(limits): type \(example)"
            }
        case Index.birthDate:
            guard let day = Day(typed: text) else { return "birth date \"\(text)\" is not a date: type YYYY-MM-DD, like 1990-01-31" }
            if day > clock.today { return "birth date \(text) is in the future: type YYYY-MM-DD, like 1990-01-31" }
            if day.year < 1900 { return "birth date \(text) is before 1900: type YYYY-MM-DD, like 1990-01-31" }
        case Index.goal:
            let unit = massUnit
            guard let value = Self.number(text) else { return "goal \"\(text)\" is not a number: type a weight in \(unit.rawValue), or leave it empty" }
            let range = ReadingRules.weightKg
            if !range.contains(unit.toKg(value)) {
                let low = CNumberText.fixed(unit.fromKg(range.lowerBound), decimals: 0)
                let high = Formats.whole(unit.fromKg(range.upperBound))
                return "goal \(text) \(unit.rawValue) is outside \(low)–\(high) \(unit.rawValue): check the number and its unit"
            }
        default: break
        }
        return nil
    }

    /// A number as the form shows it: one decimal, without a trailing ".0" (175, 72.5).
    static func shown(_ value: Double) -> String {
        let text = CNumberText.fixed(value, decimals: 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The form's height text: "5 ft 10 in" under pounds, "175" (cm) otherwise, "" when not set.
    static func heightText(_ cm: Double?, unit: MassUnit) -> String {
        guard let cm else { return "" }
        return unit == .lb ? TypedQuantity.heightText(cm: cm, massUnit: .lb) : shown(cm)
    }

    /// A typed height in cm: "175", "175 cm", "1.75 m", "5 ft 9 in", "5'9\"" (a bare number is cm).
    private static func heightCm(_ text: String) -> Double? {
        TypedQuantity.cm(text.replacingOccurrences(of: ",", with: "."))
    }

    private static func number(_ text: String) -> Double? {
        NumberText.decimal(text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "."))
    }

    /// Enter: saves the profile (and at setup makes a food log if there is none); `then`
    /// gets the saved profile and says what comes next. A wrong field keeps the form open on it.
    public func submit(then: @escaping @MainActor (Profile) -> Command) -> Command {
        // Saving before the stored profile is in would write the blank form over it.
        guard isLoaded else {
            problem = "still reading your profile: a moment"
            return .none
        }
        let profile: Profile
        switch self.profile() {
        case .failure(let wrong):
            problem = wrong.message
            focusedIndex = wrong.index
            return .none
        case .success(let value):
            profile = value
        }
        problem = nil
        let service = service
        let isSetup = isSetup
        return Command(writes.write("save profile") {
            try await service.updateProfile(profile)
            // No scale: the person's first weigh-in makes one, or the scale they add (a Withings, say) is their
            // one scale from the start, instead of a second beside an empty "Scale".
            if isSetup {
                _ = try await service.device(recording: HealthModel.Field.calories, orMake: .calorieTracker)
            }
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success:
                stored = profile
                return then(profile)
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }
}
