import Foundation
import GRDB
import HealthCore
import HealthModel

/// The undo journal (`UndoJournalStore`): each session's recent changes to readings, newest first.
extension LocalStore {
    public func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date) async throws {
        try await write { db in try Self.recordChange(entry, userID: userID, session: session, now: now, in: db) }
    }

    /// `recordChange` inside a write: also a post's own transaction (`post(…undoSession:)`). Cached statements,
    /// as every post of a person through the server runs them.
    static func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date, in db: Database) throws {
        let reading = try UndoJournal.encode(entry.reading)
        let step = (try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(step) FROM undo_journal WHERE user_id = ? AND session = ?"),
                                       arguments: [userID, session]) ?? 0) + 1
        try db.cachedStatement(sql: "INSERT INTO undo_journal (user_id, session, step, kind, reading, made_at) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [userID, session, step, entry.kind.rawValue, reading, entry.madeAt.millisecondsSince1970])
        try db.cachedStatement(sql: "DELETE FROM undo_journal WHERE user_id = ? AND session = ? AND step <= ?")
            .execute(arguments: [userID, session, step - Int64(UndoJournal.entriesPerSession)])
        try db.cachedStatement(sql: "DELETE FROM undo_journal WHERE user_id = ? AND made_at < ?")
            .execute(arguments: [userID, now.addingTimeInterval(-UndoJournal.maximumAge).millisecondsSince1970])
    }

    public func lastChange(userID: String, session: String) async throws -> UndoJournalEntry? {
        let row = try await read { db in
            try Row.fetchOne(db, sql: "SELECT step, kind, reading, made_at FROM undo_journal WHERE user_id = ? AND session = ? ORDER BY step DESC LIMIT 1",
                             arguments: [userID, session]).map { row in
                (step: row["step"] as Int64, kind: row["kind"] as String, reading: row["reading"] as String, madeAt: row["made_at"] as Int64)
            }
        }
        guard let row else { return nil }
        guard let kind = ReadingChangeKind(rawValue: row.kind) else {
            throw HealthError.invalidValue("the undo journal holds a change of a kind this hmon does not know (\(row.kind)): update hmon")
        }
        return UndoJournalEntry(step: row.step, kind: kind, reading: try UndoJournal.decode(row.reading),
                                madeAt: Date(millisecondsSince1970: row.madeAt))
    }

    public func forgetChange(step: Int64, userID: String, session: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM undo_journal WHERE user_id = ? AND session = ? AND step = ?",
                           arguments: [userID, session, step])
        }
    }
}
