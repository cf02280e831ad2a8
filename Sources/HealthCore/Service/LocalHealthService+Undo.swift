import Foundation
import HealthModel

/// Undo: the session's newest add, edit or delete, reversed with the store's own operations (checked as
/// any change is), then dropped from the journal. The undo itself is journaled nowhere: undoing an undo
/// is not offered, and `undo` again goes one step further back.
extension LocalHealthService {
    public func undoLastChange() async throws -> UndoOutcome {
        let userID = try requireUser()
        // Claimed before it is undone, so that undos at once each reverse a change of their own.
        guard let session = undoSession, let entry = try await store.claimLastChange(userID: userID, session: session) else {
            return .nothing
        }
        let before = entry.reading
        var outcome = UndoOutcome(undone: entry.kind, reading: before)
        do {
            switch entry.kind {
            case .add:
                outcome.reading = try await store.deleteReading(id: before.mid, userID: userID)
            case .delete:
                // Back under its own id, so an import of the same file still knows it (`hmon import` dedups by id).
                try await store.post(NewMessage(sdid: before.sdid, ts: before.ts, data: before.data), userID: userID, mid: before.mid)
            case .edit:
                let current = try await store.reading(id: before.mid, userID: userID)
                if let added = current.data.keys.first(where: { before.data[$0] == nil }) {
                    // A correction only sets fields; one the edit added cannot be taken away by another.
                    outcome.notPossible = "the correction added \(added), which undo cannot take away"
                } else {
                    outcome.reading = try await store.editReading(id: before.mid, userID: userID,
                                                                  change: ReadingChange(ts: before.ts, data: before.data))
                }
            }
        } catch let error as HealthError {
            // The reading moved on since (deleted elsewhere, its id back already, its device gone): the entry
            // can never be undone, so it stays out of the journal, and the next undo reaches the change before it.
            guard let reason = Self.reasonUndoIsImpossible(error) else {
                try? await store.restoreChange(entry, userID: userID, session: session)
                throw error
            }
            outcome.notPossible = reason
        } catch {
            try? await store.restoreChange(entry, userID: userID, session: session)
            throw error
        }
        return outcome
    }

    private static func reasonUndoIsImpossible(_ error: HealthError) -> String? {
        switch error {
        case .unknownReading: "it is no longer there"
        case .notYourReading: "it belongs to another account now"
        case .unknownDevice, .notYourDevice: "its device is gone"
        case .invalidValue(let why) where why.contains("already exists"): "a reading with its id is there already"
        case .invalidValue(let why): why
        default: nil
        }
    }
}
