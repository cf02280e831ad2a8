import Foundation
import HealthModel

/// An undo journal entry as both engines keep it: its kind and reading as text, its time in milliseconds.
/// Made here, so the journal's numbering and trimming (`UndoJournal.nextStep`, `dropped`) and its text are
/// the same on both; each engine runs the statements inside its own transaction (PostgreSQL under the
/// session's lock, SQLite under its single writer's).
public struct UndoJournalRow: Sendable, Equatable {
    public let step: Int64
    /// The change's kind (`ReadingChangeKind`'s raw value).
    public let kind: String
    /// The reading (`UndoJournal.encode`).
    public let reading: String
    public let madeAt: Int64

    public init(_ entry: UndoJournalEntry, step: Int64) throws {
        self.step = step
        kind = entry.kind.rawValue
        reading = try UndoJournal.encode(entry.reading)
        madeAt = entry.madeAt.millisecondsSince1970
    }
}

extension UndoJournal {
    /// The step a session's new entry takes after its newest, `last` (nil: the session has none).
    public static func nextStep(after last: Int64?) -> Int64 { (last ?? 0) + 1 }

    /// What keeping an entry at `step` drops: the session's entries through `stepsThrough` (past
    /// `entriesPerSession`) and the user's made before `madeBefore` (ms; older than `maximumAge`).
    public static func dropped(keeping step: Int64, now: Date) -> (stepsThrough: Int64, madeBefore: Int64) {
        (step - Int64(entriesPerSession), now.addingTimeInterval(-maximumAge).millisecondsSince1970)
    }
}
