import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// Issue 30, item 3: writes made at the same time share one transaction, and each still gets what a
/// transaction of its own gave it.
@Suite struct GroupCommitTests {
    /// Counts the commits on the store's writer connection.
    final class CommitCounter: TransactionObserver, @unchecked Sendable {
        var commits = 0
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { commits += 1 }
        func databaseDidRollback(_ db: Database) {}
    }

    @Test func postsMadeWhileTheWriterIsBusyCommitTogetherAndABadOneSpoilsNoOther() async throws {
        let world = try TestWorld()
        let (user, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let store = world.store
        let counter = CommitCounter()
        try await store.writer.write { db in db.add(transactionObserver: counter, extent: .databaseLifetime) }
        // Hold the writer's queue until 40 posts wait for it, so they form one group whatever the machine's pace.
        let release = DispatchSemaphore(value: 0)
        store.writer.asyncWriteWithoutTransaction { _ in release.wait() }
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<40 {
                group.addTask {
                    // Reading 17 is 7,000 kg: refused by the reading rules inside its write.
                    let weight = index == 17 ? 7_000 : 60 + Double(index) / 10
                    do {
                        _ = try await store.post(NewMessage(sdid: scale.id, data: [Field.weight: .number(weight)]), userID: user.id)
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            // The first post may have taken a group of its own to the writer before the others came: they wait
            // for the next one. Either way all 40 are held until the writer is let go.
            let allHeld = await Waiting.until(every: .milliseconds(5)) { store.groupCommit.pendingCount >= 40 }
            let commitsBefore = counter.commits
            // Let go whatever happened: a writer still held would hang every post, and the run with them.
            release.signal()
            try #require(allHeld, "the 40 posts never all waited for the commit")
            var results: [Int: Bool] = [:]
            for try await (index, stored) in group { results[index] = stored }
            #expect(counter.commits - commitsBefore <= 2, "the 40 posts took \(counter.commits - commitsBefore) commits, not one or two")
            return results
        }
        #expect(results.filter { !$0.value }.keys.sorted() == [17])
        let weights = try await store.read { db in try Double.fetchAll(db, sql: "SELECT weight FROM messages ORDER BY weight") }
        #expect(weights.count == 39)
        #expect(!weights.contains(7_000))
    }
}
