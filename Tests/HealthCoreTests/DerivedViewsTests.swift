import Foundation
import TestSupport
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// The energy summary and the weight series as the service computes them from a real store.
@Suite struct DerivedViewsTests {
    @Test(arguments: StoreEngine.available) func todaysSummaryAddsTheDaysReadingsAndProratesTheBMR(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        try await service.updateProfile(Profile(birthDate: Day(iso: "1996-06-01"), sex: .female, heightCm: 165))
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        let watch = try await world.device(.activityTracker, named: "Watch", for: service)
        let cal = calendar()
        let now = date("2026-11-20 18:00")
        func post(_ device: Device, _ time: String, _ data: [String: FieldValue]) async throws {
            try await world.store.post(NewMessage(sdid: device.id, ts: date(time).millisecondsSince1970, data: data),
                                       userID: device.uid, now: now)
        }
        try await post(scale, "2026-11-10 07:00", ["weight": .number(64)])
        try await post(scale, "2026-11-19 07:00", ["weight": .number(60)])
        try await post(food, "2026-11-20 08:00", ["calories": .number(400)])
        try await post(food, "2026-11-20 12:30", ["calories": .number(700), "comments": .text("soup")])
        try await post(food, "2026-11-19 19:00", ["calories": .number(900)])  // yesterday: not counted
        try await post(watch, "2026-11-20 09:00", ["activeEnergy": .number(120.5)])
        try await post(watch, "2026-11-21 00:00", ["activeEnergy": .number(80)])  // tomorrow: not counted

        let summary = try await service.energySummary(for: Day(now, in: cal), now: now, calendar: cal)
        #expect(summary.consumed == 1100)
        #expect(summary.active == 120.5)
        #expect(summary.weightKg == 60)
        let resting: Double = 1320.25 * 0.75
        #expect(summary.resting == resting)
        #expect(summary.net == 979.5 - resting)

        let nov15 = try await service.energySummary(for: Day(year: 2026, month: 11, day: 15), now: now, calendar: cal)
        #expect(nov15.weightKg == 64)
        let wholeDay: Double = 1360.25  // 10 × 4 kg more than at 60 kg, for the whole day
        #expect(nov15.resting == wholeDay)
    }

    @Test(arguments: StoreEngine.available) func aSummaryWithoutAProfileNamesWhatIsMissing(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        let summary = try await service.energySummary(for: Day(year: 2026, month: 11, day: 20), now: date("2026-11-20 12:00"),
                                                      calendar: calendar())
        #expect(summary.missing == [.height, .birthDate, .sex, .weight])
        #expect(summary.net == nil)
    }

    @Test(arguments: StoreEngine.available) func theWeightSeriesCoversAllTheUsersScalesButNoOneElses(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user("alice")
        let (_, bob) = try await world.user("bob")
        let home = try await world.device(.withings, named: "Home", for: alice)
        let gym = try await world.device(.withings, named: "Gym", for: alice)
        let bobs = try await world.device(.withings, named: "Bob's", for: bob)
        let now = date("2026-11-20 20:00")
        try await world.store.post(NewMessage(sdid: home.id, ts: date("2026-11-18 07:00").millisecondsSince1970,
                                              data: ["weight": .number(70)]), userID: home.uid, now: now)
        try await world.store.post(NewMessage(sdid: gym.id, ts: date("2026-11-18 19:00").millisecondsSince1970,
                                              data: ["weight": .number(71)]), userID: gym.uid, now: now)
        try await world.store.post(NewMessage(sdid: bobs.id, ts: date("2026-11-19 07:00").millisecondsSince1970,
                                              data: ["weight": .number(95)]), userID: bobs.uid, now: now)
        let days = Day(year: 2026, month: 11, day: 18)...Day(year: 2026, month: 11, day: 20)
        let series = try await alice.weightSeries(days: days, calendar: calendar())
        #expect(series.points.map(\.kg) == [70.5, 70.5, 70.5])
        #expect(series.points.map(\.isCarried) == [false, true, true])
        #expect(series.points.first?.readings == 2)
    }

    @Test(arguments: StoreEngine.available) func aBatchIsAllOrNothingAndSkipsKnownIDs(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let good = [NewMessage(sdid: scale.id, ts: 1_000, data: ["weight": .number(70)]),
                    NewMessage(sdid: scale.id, ts: 2_000, data: ["weight": .number(71)])]
        #expect(try await world.store.postBatch(good, mids: ["m1", "m2"], userID: user.id) == 2)
        #expect(try await world.store.postBatch(good, mids: ["m1", "m2"], userID: user.id) == 0)
        let bad = good + [NewMessage(sdid: scale.id, ts: 3_000, data: ["weight": .number(7000)])]
        let error = await #expect(throws: HealthError.self) {
            try await world.store.postBatch(bad, mids: ["m3", "m4", "m5"], userID: user.id)
        }
        #expect(error?.message.hasPrefix("reading 3: weight 7000 kg") == true)
        #expect(try await world.store.messageCount(userID: user.id) == 2)
    }
}
