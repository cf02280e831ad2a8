import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// Life Dashboard Companion's bucketed HRV, by its docs (webhook.md): a window goes out whole once, and when a
/// record arrives late "that window is sent again with only the late samples … a receiver that keys on
/// `bucket_start` should combine rather than replace: add the `sample_count`s … and weight the `avg` by
/// `sample_count` (`(avg1 * n1 + avg2 * n2) / (n1 + n2)`)". Hand count: 4 samples averaging 52.75 ms, then a
/// late one of 40 ms: (52.75 × 4 + 40 × 1) / 5 = 50.2 ms, where the two parts as equals would give 46.4.
@Suite struct HRVBucketMergeTests {
    /// A payload of one HRV bucket, in the shape of the docs' example bucket.
    static func payload(sentAt: String, count: Int, average: Double) -> String {
        #"{"timestamp":"\#(sentAt)","app_version":"1.2.0","source":"health_connect","_resolutions":{"heart_rate_variability":"5m"},"#
            + #""heart_rate_variability":[{"bucket_start":"2026-07-15T03:00:00Z","bucket_end":"2026-07-15T03:05:00Z","sample_count":\#(count),"#
            + #""avg":\#(average),"min":31.2,"max":60.1,"sources":["com.google.android.apps.fitness"]}]}"#
    }

    static func window(_ world: ServerWorld) async throws -> [Message] {
        try await world.store.readings(ReadingsQuery(field: ReadingKind.heartRateVariabilityFromBeats.field), userID: world.alice.id)
    }

    @Test(arguments: StoreEngine.available) func aLatePartOfAWindowIsMergedWeightedByItsSampleCountOnce(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await HealthConnectTests.link(world)
            let whole = Self.payload(sentAt: "2026-07-15T04:00:00Z", count: 4, average: 52.75)
            let late = Self.payload(sentAt: "2026-07-15T09:00:00Z", count: 1, average: 40)

            let first = try await HealthConnectTests.post(world, link, whole)
            #expect(try first.status == 200 && first.json["added"] as? Int == 1, "\(first.text)")
            let second = try await HealthConnectTests.post(world, link, late)
            #expect(try second.json["changed"] as? Int == 1, "the late part changes the window's reading: \(second.text)")

            var kept = try await Self.window(world)
            #expect(kept.count == 1, "one reading per window")
            #expect(kept.first?.data[Field.rmssd]?.number == 50.2, "(52.75 × 4 + 40) / 5")
            #expect(kept.first?.data[Field.samples]?.number == 5)

            // The same bodies again (the app's retry, a replay): nothing moves.
            for body in [late, whole] {
                let again = try await HealthConnectTests.post(world, link, body)
                #expect(try again.json["alreadyThere"] as? Int == 1, "\(again.text)")
            }
            kept = try await Self.window(world)
            #expect(kept.map { $0.data[Field.rmssd]?.number } == [50.2])

            // The day's HRV, as the insights and the overview read it, is the merged window's.
            let day = Date(timeIntervalSince1970: 1_784_073_600).millisecondsSince1970   // 2026-07-15T00:00:00Z
            let totals = try await world.store.dayTotals(userID: world.alice.id, dayStarts: [day], end: day + 86_400_000)
            #expect(totals.values.first?[.heartRateVariabilityFromBeats].mean == 50.2)
        }
    }

    @Test func aSampleCountThatIsNoCountRefusesItsBucketByName() throws {
        let body = Self.payload(sentAt: "2026-07-15T04:00:00Z", count: 0, average: 52.75)
        let payload = try HealthConnectPayload(json: Data(body.utf8), calendar: Calendar(identifier: .gregorian))
        #expect(payload.readings.isEmpty)
        #expect(payload.refusals.first?.text.hasSuffix("sample_count must be a whole number from 1 to 86,400") == true,
                "\(payload.refusals.map(\.text))")
    }
}
