import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// HC Webhook by its real defaults (`Tests/Fixtures/health-connect/hc-webhook-sync-*.json`, built from its
/// `SyncManager` with `DataResolution.kt`'s defaults): three syncs of one growing day and one night with its
/// stages as `SleepSessionRecord` numbers. Every figure is the hand count in that folder's README.
@Suite struct HCWebhookDefaultsTests {
    /// 2026-07-14T22:00:00Z: the phone's midnight of 15 July in Berlin, where the day's running totals start.
    static let dayStart: Int64 = 1_784_066_400_000

    @Test(arguments: StoreEngine.available) func threeSyncsOfAGrowingDayKeepItsLastTotalsAndTheNightItsStages(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await HealthConnectTests.link(world)
            var replies: [Reply] = []
            for sync in 1...3 {
                replies.append(try await HealthConnectTests.post(world, link, try HealthConnectTests.fixture("hc-webhook-sync-\(sync).json")))
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.text))")
            // Sync 1 adds yesterday's and today's totals and the night; 2 and 3 change today's and find the night.
            #expect(try replies[0].json["added"] as? Int == 5, "\(replies[0].text)")
            #expect(try replies[1].json["changed"] as? Int == 2, "\(replies[1].text)")
            #expect(try replies[2].json["changed"] as? Int == 2, "\(replies[2].text)")
            #expect(try replies[2].json["alreadyThere"] as? Int == 1, "\(replies[2].text)")

            let steps = try await world.store.readings(ReadingsQuery(field: ReadingKind.steps.field, order: .asc), userID: world.alice.id)
            #expect(steps.map { $0.data[ReadingKind.steps.field]?.number } == [11873, 10250])
            #expect(steps.last?.ts == Self.dayStart, "a day's total is stamped at its span's start, never in the future")
            let today = try await world.store.energyTotals(userID: world.alice.id, from: Self.dayStart, to: Self.dayStart + 86_400_000)
            #expect(today.active == 505, "the last total, not 210 + 480 + 505")

            let night = try #require(try await world.store.readings(ReadingsQuery(field: ReadingKind.sleep.field), userID: world.alice.id).first)
            #expect(night.data[ReadingKind.sleep.field]?.number == 432, "7 h 12 asleep, not 0")
            #expect(night.data[ReadingKind.timeInBed.field]?.number == 452)
            #expect(night.data[ReadingKind.deepSleep.field]?.number == 75)
            #expect(night.data[ReadingKind.remSleep.field]?.number == 110)
            #expect(night.data[ReadingKind.coreSleep.field]?.number == 247)
            #expect(night.data[ReadingKind.sleepAwake.field]?.number == 20)
        }
    }

    @Test func aStageThatIsNoneOfHealthConnectsRefusesItsSessionByName() async throws {
        try await ServerWorld.run { world in
            let link = try await HealthConnectTests.link(world)
            let body = #"{"timestamp":"2026-07-15T08:00:06.027Z","app_version":"1.9.15","sleep":[{"session_end_time":"2026-07-15T04:42:00Z","duration_seconds":27120,"stages":[{"stage":"9","start_time":"2026-07-14T21:10:00Z","end_time":"2026-07-14T22:05:00Z","duration_seconds":3300}]}]}"#
            let reply = try await HealthConnectTests.post(world, link, body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 0)
            let refusals = try reply.json["refusals"] as? [String] ?? []
            #expect(refusals.first?.hasPrefix("sleep[0]: stage 9 is none of Health Connect's") == true, "\(refusals)")
            #expect(try await world.store.readings(ReadingsQuery(field: ReadingKind.sleep.field), userID: world.alice.id).isEmpty)
        }
    }
}
