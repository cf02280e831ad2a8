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
    /// weigh-in of 72.2 kg at …", "put back 72.2 kg in the weigh-in at …", "nothing to undo in this session".
    /// - Parameter time: how the face writes a reading's time (the command line and the dashboard differ).
    public func sentence(in unit: MassUnit, time: (Date) -> String) -> String {
        guard let undone, let reading else { return "nothing to undo in this session" }
        let what = Self.what(reading, unit: unit)
        let when = time(reading.date)
        if let notPossible {
            return "could not undo the \(undone.pastTense) \(what.noun) at \(when): \(notPossible); it is dropped, undo again to go further back"
        }
        switch undone {
        case .add: return "removed the \(what.noun) of \(what.value) at \(when)"
        case .delete: return "put back the deleted \(what.noun) of \(what.value) at \(when)"
        case .edit: return "put back \(what.value) in the \(what.noun) at \(when)"
        }
    }

    /// A weigh-in by its weight; any other reading by its fields, plainly.
    private static func what(_ reading: Message, unit: MassUnit) -> (noun: String, value: String) {
        if let kg = reading.data[Field.weight]?.number {
            return ("weigh-in", String(format: "%.1f %@", unit.fromKg(kg), unit.rawValue))
        }
        let fields = reading.data.keys.sorted().map { name -> String in
            switch reading.data[name]! {
            case .number(let n): "\(name) \(String(format: "%g", n))"
            case .text(let text): "\(name) \"\(text.prefix(40))\""
            }
        }
        return ("reading", fields.joined(separator: ", "))
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
