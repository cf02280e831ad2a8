import Foundation
import HealthModel

/// One change in the undo journal: what a session did to which reading, with the reading as it was
/// before (for an edit or a delete) or as it was added (for an add), so undoing it needs nothing else.
public struct UndoJournalEntry: Sendable, Equatable {
    /// The entry's place in its session, newest highest; 0 for one not recorded yet.
    public var step: Int64
    public var kind: ReadingChangeKind
    public var reading: Message
    public var madeAt: Date

    public init(step: Int64 = 0, kind: ReadingChangeKind, reading: Message, madeAt: Date) {
        self.step = step
        self.kind = kind
        self.reading = reading
        self.madeAt = madeAt
    }
}

/// How much of the journal is kept: each session's newest `entriesPerSession` changes, and none older
/// than `maximumAge` (a local sign-in's lifetime: by then the session that made them is gone).
public enum UndoJournal {
    public static let entriesPerSession = 100
    public static let maximumAge: TimeInterval = 90 * 24 * 3600

    /// The session of a service acting for a user without any token (`--user`, `--demo`, a store's only
    /// account): whoever can open the file acts as the user anyway, so these share one journal.
    public static let tokenlessSession = "local"

    /// The session of a token: its hash, never the token itself.
    public static func session(ofToken token: String) -> String { "token:" + Secrets.sha256Hex(token) }

    /// The session of an OAuth grant: every access token of one sign-in, through its refreshes.
    public static func session(ofFamily family: String) -> String { "family:" + family }

    /// The journal's reading, as JSON text (the `Message` as the contract writes it).
    public static func encode(_ reading: Message) throws -> String {
        String(decoding: try JSONEncoder().encode(reading), as: UTF8.self)
    }

    public static func decode(_ text: String) throws -> Message {
        try JSONDecoder().decode(Message.self, from: Data(text.utf8))
    }
}

/// The undo journal: each session's recent adds, edits and deletes of readings, newest undone first.
/// Written by `LocalHealthService`: an add in the add's own transaction (`ReadingStore.post(…undoSession:)`),
/// an edit or a delete after the change, in a transaction of its own.
public protocol UndoJournalStore: AnyObject, Sendable {
    /// Keeps a change; drops the session's entries past `UndoJournal.entriesPerSession` and the user's
    /// entries older than `UndoJournal.maximumAge`.
    func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date) async throws
    /// The session's newest change; nil when there is none.
    func lastChange(userID: String, session: String) async throws -> UndoJournalEntry?
    /// Drops one change (undone, or no longer possible to undo).
    func forgetChange(step: Int64, userID: String, session: String) async throws
}
