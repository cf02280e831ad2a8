import Foundation
import HealthModel

/// The undo journal (`UndoJournalStore`), written once over an engine's statements: each session's recent
/// changes to readings, newest first.
extension UndoJournalStore where Self: StatementEngine {
    public func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date) async throws {
        try await writingStatements { db in try db.recordChange(entry, userID: userID, session: session, now: now) }
    }

    public func claimLastChange(userID: String, session: String) async throws -> UndoJournalEntry? {
        let row = try await writingStatements { db -> StoreRow? in
            // The session's lock, as `recordChange` takes it: a second undo waits here and then finds the next
            // newest (on PostgreSQL it would otherwise find the same row, wait on its row lock and delete nothing).
            try db.holdLock(named: userID + " " + session)
            return try db.one("""
                DELETE FROM undo_journal WHERE user_id = \(userID) AND session = \(session)
                    AND step = (SELECT max(step) FROM undo_journal WHERE user_id = \(userID) AND session = \(session))
                RETURNING step, kind, reading, made_at
                """)
        }
        guard let row else { return nil }
        return try UndoJournal.entry(step: try row.integer("step"), kind: try row.text("kind"), reading: try row.text("reading"),
                                     madeAt: try row.integer("made_at"))
    }

    public func restoreChange(_ entry: UndoJournalEntry, userID: String, session: String) async throws {
        let row = try UndoJournalRow(entry, step: entry.step)
        try await writingStatements { db in
            try db.run("""
                INSERT INTO undo_journal (user_id, session, step, kind, reading, made_at)
                VALUES (\(userID), \(session), \(row.step), \(row.kind), \(row.reading), \(row.madeAt))
                ON CONFLICT DO NOTHING
                """)
        }
    }
}

extension StatementSession {
    /// `recordChange` inside a write: also a post's own transaction (`post(…undoSession:)`).
    public func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date) throws {
        // Two writes of one session at once would take the same next number: the second waits here.
        try holdLock(named: userID + " " + session)
        let last = try one("SELECT max(step) AS step FROM undo_journal WHERE user_id = \(userID) AND session = \(session)")?
            .optionalInteger("step")
        let row = try UndoJournalRow(entry, step: UndoJournal.nextStep(after: last))
        try run("""
            INSERT INTO undo_journal (user_id, session, step, kind, reading, made_at)
            VALUES (\(userID), \(session), \(row.step), \(row.kind), \(row.reading), \(row.madeAt))
            """)
        let dropped = UndoJournal.dropped(keeping: row.step, now: now)
        try run("DELETE FROM undo_journal WHERE user_id = \(userID) AND session = \(session) AND step <= \(dropped.stepsThrough)")
        try run("DELETE FROM undo_journal WHERE user_id = \(userID) AND made_at < \(dropped.madeBefore)")
    }
}
