import Foundation
import HealthCore
import HealthModel
import SQLiteStorage
import Testing

/// Withings may notify many times in a row (a scale syncing a week of weigh-ins): while a fetch of the link
/// runs, the notifications that come wait as one fetch, so 50 bring two fetches, not 50.
@Suite struct WithingsNotificationBurstTests {
    @Test func fiftyNotificationsWhileAFetchRunsBringOneMoreFetch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-withings-burst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let fixture = try await WithingsFixture.start(groups: [WithingsEndToEndTests.morning])
        defer { fixture.stop() }
        let (api, files) = try await WithingsPollingTests.authorizedLink(for: alice, in: store, fixture: fixture, folder: folder)
        let sync = WithingsSync(store: store, api: api, files: files)
        let linkID = try #require(try await sync.linkIDs().first)

        // The first notification's fetch is in flight (Withings is slow to answer) when 49 more come.
        fixture.holdMeasures()
        let first = await sync.schedule(linkID: linkID)
        try await WithingsImpossibleDateTests.waitUntil("the first fetch asked Withings") { fixture.measureCalls == 1 }
        var burst: [(task: Task<WithingsFetch, Never>, isNew: Bool)] = []
        for _ in 0..<49 { burst.append(await sync.schedule(linkID: linkID)) }
        fixture.releaseMeasures()

        var outcomes = [await first.task.value]
        for ask in burst { outcomes.append(await ask.task.value) }
        #expect(first.isNew && burst.filter(\.isNew).count == 1, "one fetch in flight, one queued; the other 48 joined the queued one")
        #expect(fixture.measureCalls == 2, "two fetches for 50 notifications")
        #expect(outcomes.allSatisfy { $0.problem == nil }, "\(outcomes.compactMap(\.problem))")
        #expect(try await store.weightReadings(userID: alice.id, from: 0, to: 4_000_000_000_000).map(\.kg) == [72.35])
    }
}
