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
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(step) FROM undo_journal WHERE user_id = ? AND session = ?"),
                                      arguments: [userID, session])
        let row = try UndoJournalRow(entry, step: UndoJournal.nextStep(after: last))
        try db.cachedStatement(sql: "INSERT INTO undo_journal (user_id, session, step, kind, reading, made_at) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [userID, session, row.step, row.kind, row.reading, row.madeAt])
        let dropped = UndoJournal.dropped(keeping: row.step, now: now)
        try db.cachedStatement(sql: "DELETE FROM undo_journal WHERE user_id = ? AND session = ? AND step <= ?")
            .execute(arguments: [userID, session, dropped.stepsThrough])
        try db.cachedStatement(sql: "DELETE FROM undo_journal WHERE user_id = ? AND made_at < ?")
            .execute(arguments: [userID, dropped.madeBefore])
    }

    public func claimLastChange(userID: String, session: String) async throws -> UndoJournalEntry? {
        // One statement: SQLite runs it under the write lock, so no other undo (of any process) sees the row between.
        let row = try await write { db in
            try Row.fetchOne(db, sql: """
                DELETE FROM undo_journal WHERE user_id = ? AND session = ?
                    AND step = (SELECT max(step) FROM undo_journal WHERE user_id = ? AND session = ?)
                RETURNING step, kind, reading, made_at
                """, arguments: [userID, session, userID, session]).map { row in
                (step: row["step"] as Int64, kind: row["kind"] as String, reading: row["reading"] as String, madeAt: row["made_at"] as Int64)
            }
        }
        guard let row else { return nil }
        return try UndoJournal.entry(step: row.step, kind: row.kind, reading: row.reading, madeAt: row.madeAt)
    }

    public func restoreChange(_ entry: UndoJournalEntry, userID: String, session: String) async throws {
        let row = try UndoJournalRow(entry, step: entry.step)
        try await write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO undo_journal (user_id, session, step, kind, reading, made_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [userID, session, row.step, row.kind, row.reading, row.madeAt])
        }
    }
}
