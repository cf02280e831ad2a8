import Foundation
import HealthCore
import HealthModel

/// What the inline prompts (a new weight, consumed energy) share: reading the number typed, and posting
/// it as a reading.
enum PromptReading {
    /// The number typed into `prompt`, or nil with `problem` set to what to type instead (nil too when no
    /// prompt is open, with `problem` left alone).
    static func typedNumber(_ prompt: TextField?, quantity: String, example: String, problem: inout String?) -> Double? {
        guard let text = prompt?.text.trimmingCharacters(in: .whitespaces) else { return nil }
        switch number(in: text, quantity: quantity, example: example) {
        case .success(let value):
            return value
        case .failure(let reason):
            problem = reason.message
            return nil
        }
    }

    /// The number in `text` ("72,4" as well as "72.4"), or the message to show when there is none:
    /// `quantity` names what to type ("a weight in kg"), `example` a value to copy ("72.4").
    static func number(in text: String, quantity: String, example: String) -> Result<Double, PromptProblem> {
        // The core's rule for typed numbers: no "nan", "inf", hexadecimal or endless digits.
        guard let value = NumberText.decimal(text.replacingOccurrences(of: ",", with: ".")) else {
            return .failure(PromptProblem(message: text.isEmpty
                ? "type \(quantity), like \(example), or Esc to cancel"
                : "\"\(text)\" is not a number: type \(quantity), like \(example)"))
        }
        return .success(value)
    }
}

/// What a prompt's text says: the number, and the time typed after it, if any ("72.4 yesterday 21:30").
struct TypedEntry {
    var value: Double
    /// Nil when no time was typed: the reading is for now (or the day the screen shows).
    var time: Date?
}

extension PromptReading {
    /// The example every prompt's hint gives for a time after the number.
    static let timeHint = "a time may follow: 21:30, yesterday 7:10, 2026-11-20 07:10"

    /// The number typed into `prompt` and the optional time after it (`TypedTime`'s forms; a time alone is
    /// on `day`), or nil with `problem` set to what to type instead. A time still ahead is refused: a
    /// reading is logged when it happened.
    /// - Parameter withUnit: reads a number typed with its unit ("160 lb", "72,4kg") into the unit the prompt
    ///   asks in; nil when the unit is not one of this quantity's. Without it only a bare number is read.
    static func typedEntry(_ prompt: TextField?, quantity: String, example: String, day: Day, clock: Clock,
                           withUnit: ((String) -> Double?)? = nil, problem: inout String?) -> TypedEntry? {
        guard let text = prompt?.text.trimmingCharacters(in: .whitespaces) else { return nil }
        var numberText = String(text.prefix { !$0.isWhitespace })
        var rest = text.dropFirst(numberText.count).trimmingCharacters(in: .whitespaces)
        // A unit word after the number belongs to it ("160 lb yesterday 7:10"); a time never starts with one.
        let next = String(rest.prefix { !$0.isWhitespace })
        if let withUnit, !next.isEmpty, next.allSatisfy(\.isLetter), withUnit(numberText + " " + next) != nil {
            numberText += " " + next
            rest = rest.dropFirst(next.count).trimmingCharacters(in: .whitespaces)
        }
        let timeText = rest
        let typed: Result<Double, PromptProblem> = if let withUnit, numberText.contains(where: \.isLetter) {
            withUnit(numberText).map { .success($0) }
                ?? .failure(PromptProblem(message: "\"\(numberText)\" is not a number (or its unit is not one for this): type \(quantity), like \(example)"))
        } else {
            number(in: numberText, quantity: quantity, example: example)
        }
        guard case .success(let value) = typed else {
            if case .failure(let reason) = typed { problem = reason.message }
            return nil
        }
        guard !timeText.isEmpty else { return TypedEntry(value: value, time: nil) }
        guard let time = TypedTime.date(timeText, day: day, today: clock.today, calendar: clock.calendar) else {
            problem = "\"\(timeText)\" is not a time: after the number type \(TypedTime.forms), like \(example) yesterday 21:30"
            return nil
        }
        guard time <= clock.now().addingTimeInterval(60) else {
            problem = "\(timeText) is still ahead: a reading is logged for when it happened"
            return nil
        }
        return TypedEntry(value: value, time: time)
    }
}

extension PromptReading {
    /// "weight 2000 lb is outside 2–1433 lb: …" when a typed weight is outside the store's range, said in the
    /// unit it was typed in; nil when it is inside.
    static func outsideRange(_ value: Double, unit: MassUnit) -> String? {
        let range = ReadingRules.weightKg
        guard !range.contains(unit.toKg(value)) else { return nil }
        let low = CNumberText.fixed(unit.fromKg(range.lowerBound), decimals: 0)
        let high = Formats.whole(unit.fromKg(range.upperBound))
        return "weight \(Formats.fieldValue(.number(value), unit: nil)) \(unit.rawValue) is outside \(low)–\(high) \(unit.rawValue): check the number and its unit"
    }

    /// The same for energy eaten, in kcal or kJ.
    static func outsideRange(_ value: Double, unit: EnergyUnit) -> String? {
        let range = ReadingRules.energyKcal
        guard !range.contains(unit.toKcal(value)) else { return nil }
        let high = Formats.whole(unit.fromKcal(range.upperBound))
        return "energy \(Formats.fieldValue(.number(value), unit: nil)) \(unit.rawValue) is outside 0–\(high) \(unit.rawValue) for one entry: check the number and its unit"
    }
}

/// Why a prompt's text cannot be saved, in words for the status bar.
struct PromptProblem: Error {
    let message: String
}

extension WriteSlot {
    /// Posts a reading typed into a prompt. The service checks it as every other path does; when it is
    /// saved, `saved` says what comes next (close the prompt, reload); when not, `failed` gets the reason.
    func post(_ message: NewMessage, to service: any HealthService, saved: @escaping @MainActor () -> Command,
              failed: @escaping @MainActor (String) -> Void) -> Command {
        Command(write("reading for \(message.sdid)") {
            try await service.post(message)
        } apply: { result in
            switch result {
            case .success:
                return saved()
            case .failure(let error):
                failed(describe(error))
                return .none
            }
        })
    }
}

extension WriteSlot {
    /// Deletes a reading the person said yes to. When it is gone, `deleted` says what comes next (drop the
    /// row, reload); when not, `failed` gets the reason.
    func delete(reading id: String, from service: any HealthService, deleted: @escaping @MainActor () -> Command,
                failed: @escaping @MainActor (String) -> Void) -> Command {
        Command(write("delete \(id)") {
            try await service.deleteReading(id: id)
        } apply: { result in
            switch result {
            case .success:
                return deleted()
            case .failure(let error):
                failed(describe(error))
                return .none
            }
        })
    }
}

extension WriteSlot {
    /// Saves a correction typed into a prompt, checked by the service as a new reading is. When it is
    /// saved, `saved` says what comes next (close the prompt, reload); when not, `failed` gets the reason
    /// and the prompt stays open to fix it.
    func edit(reading id: String, _ change: ReadingChange, in service: any HealthService,
              saved: @escaping @MainActor () -> Command, failed: @escaping @MainActor (String) -> Void) -> Command {
        Command(write("edit \(id)") {
            try await service.editReading(id: id, change)
        } apply: { result in
            switch result {
            case .success:
                return saved()
            case .failure(let error):
                failed(describe(error))
                return .none
            }
        })
    }
}
