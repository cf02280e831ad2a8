import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// `LocalStore+UndoJournal` on PostgreSQL.
extension PostgresStore {
    public func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date) async throws {
        try await write { db in try await Self.recordChange(entry, userID: userID, session: session, now: now, in: db) }
    }

    /// `recordChange` inside a write: also a post's own transaction (`post(…undoSession:)`).
    static func recordChange(_ entry: UndoJournalEntry, userID: String, session: String, now: Date, in db: PGConnection) async throws {
        let key = userID + " " + session
        // Two writes of one session at once would take the same next number: the second waits here.
        try await db.run("SELECT pg_advisory_xact_lock(hashtext(\(key)))")
        let last = try await db.one("SELECT max(step) AS step FROM undo_journal WHERE user_id = \(userID) AND session = \(session)")?
            .value("step", Int64?.self)
        let row = try UndoJournalRow(entry, step: UndoJournal.nextStep(after: last))
        try await db.run("""
            INSERT INTO undo_journal (user_id, session, step, kind, reading, made_at)
            VALUES (\(userID), \(session), \(row.step), \(row.kind), \(row.reading), \(row.madeAt))
            """)
        let dropped = UndoJournal.dropped(keeping: row.step, now: now)
        try await db.run("DELETE FROM undo_journal WHERE user_id = \(userID) AND session = \(session) AND step <= \(dropped.stepsThrough)")
        try await db.run("DELETE FROM undo_journal WHERE user_id = \(userID) AND made_at < \(dropped.madeBefore)")
    }

    public func claimLastChange(userID: String, session: String) async throws -> UndoJournalEntry? {
        let key = userID + " " + session
        let row = try await write { db in
            // The session's lock, as `recordChange` takes it: a second undo waits here and then finds the next
            // newest. Without it, it would find the same row, wait on its row lock and delete nothing.
            try await db.run("SELECT pg_advisory_xact_lock(hashtext(\(key)))")
            return try await db.one("""
                DELETE FROM undo_journal WHERE user_id = \(userID) AND session = \(session)
                    AND step = (SELECT max(step) FROM undo_journal WHERE user_id = \(userID) AND session = \(session))
                RETURNING step, kind, reading, made_at
                """).map { row in
                (step: try row.value("step", Int64.self), kind: try row.value("kind", String.self),
                 reading: try row.value("reading", String.self), madeAt: try row.value("made_at", Int64.self))
            }
        }
        guard let row else { return nil }
        return try UndoJournal.entry(step: row.step, kind: row.kind, reading: row.reading, madeAt: row.madeAt)
    }

    public func restoreChange(_ entry: UndoJournalEntry, userID: String, session: String) async throws {
        let row = try UndoJournalRow(entry, step: entry.step)
        try await write { db in
            try await db.run("""
                INSERT INTO undo_journal (user_id, session, step, kind, reading, made_at)
                VALUES (\(userID), \(session), \(row.step), \(row.kind), \(row.reading), \(row.madeAt))
                ON CONFLICT DO NOTHING
                """)
        }
    }
}
