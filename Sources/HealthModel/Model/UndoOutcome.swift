import Foundation

/// A change a person made to a reading, as the undo journal keeps it.
public enum ReadingChangeKind: String, Codable, Sendable, CaseIterable {
    case add, edit, delete
}

/// What `undoLastChange` did: the newest change of the session, undone, or nothing when there is none.
/// The same value crosses the server (`POST /v1.1/hmon/undo` answers `{"data": UndoOutcome}`).
public struct UndoOutcome: Codable, Sendable, Equatable {
    /// The change undone; nil when the session has nothing left to undo.
    public var undone: ReadingChangeKind?
    /// The reading: as it was removed (an add undone), as it is back (a delete undone), or with its old
    /// values back (an edit undone).
    public var reading: Message?
    /// Set when the reading had changed since (deleted elsewhere, its id taken again, its device gone):
    /// the change is dropped from the journal and nothing was changed; why, for a person.
    public var notPossible: String?

    public init(undone: ReadingChangeKind?, reading: Message?, notPossible: String? = nil) {
        self.undone = undone
        self.reading = reading
        self.notPossible = notPossible
    }

    /// Nothing left to undo in this session.
    public static let nothing = UndoOutcome(undone: nil, reading: nil)

    /// What a person reads: "removed the weigh-in of 27.2 kg at 2026-11-26 08:10", "put back the deleted
    /// weigh-in of 72.2 kg at …", "put back 72.2 kg in the weigh-in at …", "removed the 500 kJ meal "test" of
    /// 14:09", "removed the HRV measurement of 07:12 (RMSSD 18.9 ms)", "nothing to undo in this session".
    /// - Parameter time: how the face writes a reading's time (the command line and the dashboard differ).
    public func sentence(in unit: MassUnit, time: (Date) -> String) -> String {
        sentence(in: QuantityText(massUnit: unit), time: time)
    }

    /// The same, with every figure in the person's units, written by the one formatter.
    public func sentence(in units: QuantityText, time: (Date) -> String) -> String {
        guard let undone, let reading else { return "nothing to undo in this session" }
        let when = time(reading.date)
        if let kg = reading.data[Field.weight]?.number {
            let value = units.text(kg, .mass)
            if let notPossible {
                return "could not undo the \(undone.pastTense) weigh-in at \(when): \(notPossible); it is dropped, undo again to go further back"
            }
            switch undone {
            case .add: return "removed the weigh-in of \(value) at \(when)"
            case .delete: return "put back the deleted weigh-in of \(value) at \(when)"
            case .edit: return "put back \(value) in the weigh-in at \(when)"
            }
        }
        let (noun, detail) = Self.what(reading, units: units)
        let figures = detail.isEmpty ? "" : " (\(detail))"
        if let notPossible {
            return "could not undo the \(undone.pastTense) \(noun) of \(when): \(notPossible); it is dropped, undo again to go further back"
        }
        switch undone {
        case .add: return "removed the \(noun) of \(when)\(figures)"
        case .delete: return "put back the deleted \(noun) of \(when)\(figures)"
        case .edit: return "put back the \(noun) of \(when) as it was\(figures)"
        }
    }

    /// What kind of reading was undone, so a face can say where it shows.
    public var readingKind: ReadingKindWord? { reading.map { ReadingKindWord($0.data) } }

    /// A reading as a person names it, and its figures in their units: ("500 kJ meal \"test\"", ""),
    /// ("HRV measurement", "RMSSD 18.9 ms"), ("reading", "steps 8,283 steps").
    private static func what(_ reading: Message, units: QuantityText) -> (noun: String, detail: String) {
        let data = reading.data
        let comment = data[Field.comments].flatMap { value -> String? in
            if case .text(let text) = value, !text.isEmpty { return " \"\(text.prefix(40))\"" }
            return nil
        } ?? ""
        switch ReadingKindWord(data) {
        case .hrv:
            // The figure the HRV screen leads with: RMSSD, else the SDNN of a meter that gives no RMSSD.
            let figure = data[Field.rmssd]?.number.map { "RMSSD \(units.text($0, .milliseconds))" }
                ?? (data[Field.sdnn]?.number ?? data[Field.heartRateVariabilitySDNN]?.number).map { "SDNN \(units.text($0, .milliseconds))" }
            return ("HRV measurement" + comment, figure ?? "")
        case .meal:
            return ("\(units.text(data[Field.calories]?.number ?? 0, .energy)) meal" + comment, "")
        case .activity:
            return ("\(units.text(data[Field.activeEnergy]?.number ?? 0, .energy)) of activity" + comment, "")
        case .weighIn, .other:
            let fields = data.keys.sorted().compactMap { name -> String? in
                guard name != Field.comments, case .number(let n) = data[name]! else { return nil }
                return Field.quantityKind(of: name).map { "\(name) \(units.text(n, $0))" } ?? "\(name) \(String(format: "%g", n))"
            }
            return ("reading" + comment, fields.joined(separator: ", "))
        }
    }
}

/// Which kind of reading a reading is, by what it holds: the screen a person finds it on.
public enum ReadingKindWord: Sendable, Equatable {
    case weighIn, meal, activity, hrv, other

    public init(_ data: [String: FieldValue]) {
        if data[Field.weight] != nil { self = .weighIn }
        else if data[Field.rmssd] != nil || data[Field.sdnn] != nil || data[Field.heartRateVariabilitySDNN] != nil
                    || data[Field.stress] != nil {
            self = .hrv
        } else if data[Field.calories] != nil { self = .meal }
        else if data[Field.activeEnergy] != nil { self = .activity }
        else { self = .other }
    }
}

extension ReadingChangeKind {
    var pastTense: String {
        switch self {
        case .add: "added"
        case .edit: "corrected"
        case .delete: "deleted"
        }
    }
}
