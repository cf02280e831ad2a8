import Foundation
import HealthModel

/// Readings that arrive from outside for the acting user (a phone's push, a scale's sync), not typed: they
/// keep no undo entry, and a reading the store already has (same id) is not added twice.
extension LocalHealthService {
    /// A whole file a phone pushed (Health Auto Export's JSON), all or nothing.
    public func importFile(_ url: URL, timeZone: TimeZone, now: Date) async throws -> ImportResult {
        let result = try await store.importFile(url, userID: try requireUser(), dryRun: false, timeZone: timeZone,
                                                options: ImportOptions(path: .healthAutoExport), now: now, progress: nil)
        try await settleDuplicates(after: result.tally)
        return result
    }

    /// A batch with the ids its source gave them (`mids`), so the same batch fetched again adds nothing.
    /// Returns how many were new.
    public func postBatch(_ messages: [NewMessage], mids: [String], now: Date) async throws -> Int {
        try await store.postBatch(messages, mids: mids, userID: try requireUser(), now: now)
    }

    /// An arrival's writes, judged before (`ArrivalJudge`), in one transaction: all of them or none. With the
    /// `path` they came by, each measurement they bring is counted once among those that came by other ways
    /// (`settleDuplicates`).
    public func applyArrival(_ writes: some ArrivalWriteList, path: ReadingPath? = nil, now: Date) async throws -> [ArrivalWriteResult] {
        let userID = try requireUser()
        guard let path else { return try await store.applyArrival(writes, userID: userID, path: nil, at: now) }
        return try await applySettling(writes, userID: userID, path: path, now: now)
    }
}
