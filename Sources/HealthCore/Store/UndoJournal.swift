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

    /// An entry as a store keeps it: its kind as text, its reading as JSON text, its time in milliseconds.
    public static func entry(step: Int64, kind: String, reading: String, madeAt: Int64) throws -> UndoJournalEntry {
        guard let kind = ReadingChangeKind(rawValue: kind) else {
            throw HealthError.invalidValue("the undo journal holds a change of a kind this hmon does not know (\(kind)): update hmon")
        }
        return UndoJournalEntry(step: step, kind: kind, reading: try decode(reading), madeAt: Date(millisecondsSince1970: madeAt))
    }
}

/// The undo journal: each session's recent adds, edits and deletes of readings, newest undone first.
/// Written by `LocalHealthService`: an add in the add's own transaction (`ReadingStore.post(…undoSession:)`),
/// an edit or a delete after the change, in a transaction of its own.
public protocol UndoJournalStore: AnyObject, Sendable {
    /// Keeps a change; drops the session's entries past `UndoJournal.entriesPerSession` and the user's
    /// entries older than `UndoJournal.maximumAge`.
    func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date) async throws
    /// Takes the session's newest change out of the journal, in one transaction, and returns it; nil when
    /// there is none. Undos of one session at once, in this process or another, each take a different
    /// change, newest first: reading the newest and dropping it later let two undos take the same one.
    func claimLastChange(userID: String, session: String) async throws -> UndoJournalEntry?
    /// Puts a claimed change back at its own step, when undoing it failed for a reason that may pass (a
    /// busy store): it stays to be undone again. Nothing, if its step has been taken since.
    func restoreChange(_ entry: UndoJournalEntry, userID: String, session: String) async throws
}
