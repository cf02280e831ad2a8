import Foundation
import TestSupport
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// The insights' input, `dayTotals`: each local day's readings summed, on either store. SQLite keeps the
/// sums it made, as PostgreSQL does (signed each its own way); both must give the hand-worked figures below.
@Suite struct DayTotalsOnBothStoresTests {
    @Test(arguments: StoreEngine.available)
    func eachDaySumsItsOwnReadingsAndADayWithoutAnyIsAbsent(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let watch = try await world.device(.activityTracker, named: "Watch", for: service)
        let berlin = calendar()
        // Nov 18: two weigh-ins and two watch samples; Nov 19: nothing; Nov 20: one weigh-in, a resting
        // heart rate, and a sample at 23:59 that is still Nov 20 in Berlin.
        let readings: [(String, Device, [String: FieldValue])] = [
            ("2026-11-18 07:00", scale, ["weight": .number(70.0)]),
            ("2026-11-18 21:00", scale, ["weight": .number(71.0)]),
            ("2026-11-18 12:00", watch, ["activeEnergy": .number(120.5), "steps": .number(3000)]),
            ("2026-11-18 18:00", watch, ["activeEnergy": .number(80.0), "steps": .number(1500)]),
            ("2026-11-20 07:10", scale, ["weight": .number(69.5)]),
            ("2026-11-20 08:00", watch, ["restingHeartRate": .number(52)]),
            ("2026-11-20 23:59", watch, ["steps": .number(250)]),
        ]
        for (local, device, data) in readings {
            try await service.post(NewMessage(sdid: device.id, ts: date(local, in: berlin).millisecondsSince1970, data: data))
        }
        let starts = ["2026-11-18 00:00", "2026-11-19 00:00", "2026-11-20 00:00"].map { date($0, in: berlin).millisecondsSince1970 }
        let end = date("2026-11-21 00:00", in: berlin).millisecondsSince1970
        // Read twice: the second answer comes from SQLite's cache and must not differ.
        for _ in 0..<2 {
            let totals = try await world.store.dayTotals(userID: user.id, dayStarts: starts, end: end)
            #expect(totals.keys.sorted() == [0, 2], "Nov 19 has no readings")
            let first = try #require(totals[0])
            #expect(first[.weight] == SumCount(sum: 141, count: 2))            // 70.0 + 71.0
            #expect(first[.activeEnergy] == SumCount(sum: 200.5, count: 2))    // 120.5 + 80.0
            #expect(first[.steps] == SumCount(sum: 4500, count: 2))            // 3000 + 1500
            #expect(first[.restingHeartRate] == SumCount())
            let third = try #require(totals[2])
            #expect(third[.weight] == SumCount(sum: 69.5, count: 1))
            #expect(third[.restingHeartRate] == SumCount(sum: 52, count: 1))
            #expect(third[.steps] == SumCount(sum: 250, count: 1))             // 23:59 is still Nov 20
            #expect(third[.activeEnergy] == SumCount())
        }
    }
}
