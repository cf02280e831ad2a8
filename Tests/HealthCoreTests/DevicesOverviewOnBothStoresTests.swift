import Foundation
import ModelTestSupport
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// The devices screen's overview on either store: each device's latest reading (a scale's latest weigh-in,
/// not a later reading without a weight), no reading for a device without any, nobody else's readings,
/// and each type's manifest in its fields' order.
@Suite struct DevicesOverviewOnBothStoresTests {
    @Test(arguments: StoreEngine.available)
    func eachDeviceShowsItsLatestReadingAndAScaleItsLatestWeighIn(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: alice)
        let food = try await world.device(.calorieTracker, named: "Food", for: alice)
        let watch = try await world.device(.activityTracker, named: "Watch", for: alice)
        let (_, bob) = try await world.user("bob")
        let bobsScale = try await world.device(.withings, named: "Bob's scale", for: bob)
        func at(_ text: String) -> Int64 { date(text).millisecondsSince1970 }

        _ = try await alice.post(NewMessage(sdid: scale.id, ts: at("2026-11-10 07:00"), data: [Field.weight: .number(72.4)]))
        _ = try await alice.post(NewMessage(sdid: scale.id, ts: at("2026-11-10 07:01"), data: [Field.fatRatio: .number(21.5)]))
        _ = try await alice.post(NewMessage(sdid: food.id, ts: at("2026-11-10 08:00"), data: [Field.calories: .number(450)]))
        _ = try await alice.post(NewMessage(sdid: food.id, ts: at("2026-11-10 13:00"), data: [Field.calories: .number(700)]))
        _ = try await bob.post(NewMessage(sdid: bobsScale.id, ts: at("2026-11-11 07:00"), data: [Field.weight: .number(91.5)]))

        let overview = try await alice.devicesOverview()
        #expect(overview.devices.map(\.id) == [scale.id, food.id, watch.id])
        #expect(overview.latestReadings[scale.id]?.data == [Field.weight: .number(72.4)], "the weigh-in, not the later body fat")
        #expect(overview.latestReadings[food.id]?.data == [Field.calories: .number(700)])
        #expect(overview.latestReadings[watch.id] == nil, "no readings yet")
        #expect(overview.latestReadings[bobsScale.id] == nil && overview.latestReadings.count == 2)
        for type in [BuiltInDeviceType.withings, .calorieTracker, .activityTracker] {
            #expect(overview.manifests[type.deviceType.id]?.fields.map(\.name) == type.manifest.fields.map(\.name), "\(type)")
        }
        #expect(overview.manifests.count == 3)
    }

    @Test(arguments: StoreEngine.available)
    func todaysCountsAreEachDevicesReadingsSinceMidnightAndNoOneElses(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: alice)
        let food = try await world.device(.calorieTracker, named: "Food", for: alice)
        _ = try await world.device(.activityTracker, named: "Watch", for: alice)
        let (_, bob) = try await world.user("bob")
        let bobsScale = try await world.device(.withings, named: "Bob's scale", for: bob)
        func at(_ text: String) -> Int64 { date(text).millisecondsSince1970 }
        _ = try await alice.post(NewMessage(sdid: scale.id, ts: at("2026-11-09 23:59"), data: [Field.weight: .number(72.6)]))
        _ = try await alice.post(NewMessage(sdid: scale.id, ts: at("2026-11-10 00:00"), data: [Field.weight: .number(72.4)]))
        _ = try await alice.post(NewMessage(sdid: scale.id, ts: at("2026-11-10 07:01"), data: [Field.fatRatio: .number(21.5)]))
        for hour in ["08:00", "13:00", "19:30"] {
            _ = try await alice.post(NewMessage(sdid: food.id, ts: at("2026-11-10 " + hour), data: [Field.calories: .number(450)]))
        }
        _ = try await bob.post(NewMessage(sdid: bobsScale.id, ts: at("2026-11-10 07:00"), data: [Field.weight: .number(91.5)]))

        let midnight = date("2026-11-10 00:00")
        #expect(try await alice.readingCounts(since: midnight) == [scale.id: 2, food.id: 3], "yesterday's 23:59 is not today's")
        let screen = try await alice.devicesScreen(DevicesScreenData.Ask(since: midnight, recentDevice: food.id))
        #expect(screen.todayCounts == [scale.id: 2, food.id: 3])
    }
}
