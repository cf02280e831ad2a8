import Foundation
import GRDB
import Synchronization

/// Concurrent writes commit together: while one transaction is being written, the writes that arrive
/// wait, then run one after another in the next transaction, each in a savepoint of its own, and that
/// transaction commits once for all of them (group commit).
///
/// What a caller sees is what a transaction of its own gave it: its changes are kept only if it returned
/// (a write that throws is rolled back to its savepoint, the others of its group are not touched), and it
/// hears back only after the commit, so a server's 2xx still means the reading is written. What is saved
/// is a commit per write: SQLite writes the pages of the table and its indexes to the WAL at every commit,
/// so when a scale, a phone push and an Exist client post at once, one commit writes each page once for
/// all of them.
final class GroupCommit: Sendable {
    /// Weak: once the store lets its connections go (a command ending), nothing here may keep them open,
    /// or SQLite would not close the file and remove its journal before the process exits.
    private let writer: WeakWriter
    private let state = Mutex(State())
    /// Writes per transaction at most, so one group's wait stays short and other writers
    /// (an import, a migration) get their turn on the writer's queue between groups.
    static let largestGroup = 64

    private struct State {
        var waiting: [Job] = []
        /// Writes of the group at the writer now, not yet finished.
        var writing = 0
        var draining = false
    }

    /// A write: `run` inside the group's transaction, then `finish` with the commit's error, if any.
    private struct Job: Sendable {
        let run: @Sendable (Database) -> Void
        let finish: @Sendable ((any Error)?) -> Void
    }

    /// What a job's `run` left for its `finish`; touched on the writer's queue only, one after the other.
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    /// Set once, in `init`, and only read after.
    private final class WeakWriter: @unchecked Sendable {
        weak var value: (any DatabaseWriter)?
        init(_ value: any DatabaseWriter) { self.value = value }
    }

    init(writer: any DatabaseWriter) {
        self.writer = WeakWriter(writer)
    }

    /// Writes waiting for the next group (for tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }
    /// Writes not yet finished: waiting, or in the group at the writer (for tests).
    var pendingCount: Int { state.withLock { $0.waiting.count + $0.writing } }

    /// Runs `updates` in the next group's transaction; returns its value once that transaction is committed.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = Outcome<T>()
            let job = Job(run: { db in
                do {
                    var value: T?
                    try db.inSavepoint {
                        value = try updates(db)
                        return .commit
                    }
                    outcome.result = .success(value!)
                } catch {
                    outcome.result = .failure(error)
                }
            }, finish: { commitError in
                if let commitError {
                    continuation.resume(throwing: commitError)
                } else {
                    continuation.resume(with: outcome.result ?? .failure(DatabaseError(resultCode: .SQLITE_ABORT)))
                }
            })
            let startDraining = state.withLock { state in
                state.waiting.append(job)
                if state.draining { return false }
                state.draining = true
                return true
            }
            if startDraining { Task { await writeGroups() } }
        }
    }

    /// Writes groups until none waits. Each group is one turn on the writer's queue, so other writers (an
    /// import, a migration) get theirs between groups. Its writes hear back only after that turn has ended,
    /// as from the writer's own `write`.
    private func writeGroups() async {
        while true {
            let group: [Job] = state.withLock { state in
                let group = Array(state.waiting.prefix(Self.largestGroup))
                state.waiting.removeFirst(group.count)
                state.writing = group.count
                if group.isEmpty { state.draining = false }
                return group
            }
            if group.isEmpty { return }
            let commitError = await write(group)
            state.withLock { $0.writing = 0 }
            for job in group { job.finish(commitError) }
        }
    }

    /// One group's transaction; the error that undid it, if any.
    private func write(_ group: [Job]) async -> (any Error)? {
        guard let writer = writer.value else { return DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store is closed") }
        do {
            try await writer.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    for job in group {
                        job.run(db)
                        // SQLite ends the whole transaction on some errors (a full disk, an I/O error): the
                        // writes before it are lost with it, so none of the group may hear it succeeded.
                        guard db.isInsideTransaction else {
                            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the write transaction was rolled back")
                        }
                    }
                    return .commit
                }
            }
            return nil
        } catch {
            return error
        }
    }
}
