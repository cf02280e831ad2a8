import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import SQLiteStorage
import Testing

/// Withings may notify many times in a row (a scale syncing a week of weigh-ins): while a fetch of the link
/// runs, the notifications that come wait as one fetch, so 50 bring two fetches, not 50.
@Suite struct WithingsNotificationBurstTests {
    @Test func fiftyNotificationsWhileAFetchRunsBringOneMoreFetch() async throws {
        try await WithingsPollingTests.withLinkedAlice { world in
            let (store, alice, fixture) = (world.store, world.alice, world.fixture)
            let sync = WithingsSync(links: store, services: UserServices(store: store), api: world.api, files: world.files)
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
}
