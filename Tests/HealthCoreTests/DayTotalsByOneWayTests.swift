import Foundation
import ModelTestSupport
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// A day's steps and energy that two ways bring are counted once, by the way first in the person's order
/// (docs/methods.md "One measurement, one reading"): a phone hub's records beside another hub's day totals,
/// on both engines, in the person's day (Berlin here). Hand count: Health Connect's records 4,100 + 5,700 +
/// 450 = 10,250 steps and its 505 kcal total; Health Auto Export's 9,900 steps and 480 kcal for the same day.
@Suite struct DayTotalsByOneWayTests {
    static let berlin = calendar()

    static func put(_ id: String, _ field: String, _ value: Double, at local: String, on device: Device) -> ArrivalWrite {
        .put(mid: id, message: NewMessage(sdid: device.id, ts: date(local, in: berlin).millisecondsSince1970, data: [field: .number(value)]),
             sentAt: nil)
    }

    static func steps(_ service: LocalHealthService) async throws -> [Double] {
        let totals = try await service.dailyTotals(days: Day(year: 2026, month: 11, day: 20)...Day(year: 2026, month: 11, day: 21), calendar: berlin)
        return [totals[Day(year: 2026, month: 11, day: 20)]?[.steps].sum ?? 0, totals[Day(year: 2026, month: 11, day: 21)]?[.steps].sum ?? 0]
    }

    @Test(arguments: StoreEngine.available)
    func aDayByTwoHubsIsCountedOnceByTheFirstAndThePreferenceSwapsIt(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, _) = try await world.user()
        let service = LocalHealthService(store: world.store, userID: user.id, dayZone: Self.berlin.timeZone)
        let phone = try await world.device(.activityTracker, named: "Phone", for: service)
        let now = date("2026-11-21 22:00", in: Self.berlin)

        // Health Auto Export's day summaries arrive first, then Health Connect's records and total.
        _ = try await service.applyArrival([
            Self.put("hae-steps-20", Field.steps, 9_900, at: "2026-11-20 00:00", on: phone),
            Self.put("hae-active-20", Field.activeEnergy, 480, at: "2026-11-20 00:00", on: phone),
            Self.put("hae-steps-21", Field.steps, 7_000, at: "2026-11-21 00:00", on: phone),
        ], path: .healthAutoExport, now: now)
        _ = try await service.applyArrival([
            Self.put("hc-1", Field.steps, 4_100, at: "2026-11-20 09:00", on: phone),
            Self.put("hc-2", Field.steps, 5_700, at: "2026-11-20 14:00", on: phone),
            Self.put("hc-3", Field.steps, 450, at: "2026-11-20 21:30", on: phone),
            Self.put("hc-active", Field.activeEnergy, 505, at: "2026-11-20 00:00", on: phone),
        ], path: .healthConnect, now: now)

        #expect(try await Self.steps(service) == [10_250, 7_000], "the 20th is Health Connect's; the 21st only Health Auto Export has")
        let day = try await service.energySummary(for: Day(year: 2026, month: 11, day: 20), now: now, calendar: Self.berlin)
        #expect(day.active == 505)
        let aside = try await service.asideReadings(from: .min, to: .max)
        #expect(Set(aside.map(\.message.mid)) == ["hae-steps-20", "hae-active-20"], "kept, never lost")
        #expect(Set(aside.map(\.path)) == [.healthAutoExport])

        #expect(try await service.preferSource(.healthAutoExport, for: .steps) == 1)
        #expect(try await Self.steps(service) == [9_900, 7_000])
        #expect(try await service.energySummary(for: Day(year: 2026, month: 11, day: 20), now: now, calendar: Self.berlin).active == 505,
                "active energy keeps its own order")
        #expect(try await service.preferSource(nil, for: .steps) == 3, "Health Connect's three records come back")
        #expect(try await Self.steps(service) == [10_250, 7_000])

        // The phone takes its records back: the day is Health Auto Export's again.
        _ = try await service.applyArrival([.delete(mid: "hc-1"), .delete(mid: "hc-2"), .delete(mid: "hc-3")], path: .healthConnect, now: now)
        #expect(try await Self.steps(service) == [9_900, 7_000])
    }

    /// An Apple Health export imported after the phone hub's day: the hub's day stays counted and the file's
    /// records of it are kept aside; the file's other day, which no other way brought, is counted as it is.
    @Test(arguments: StoreEngine.available)
    func anImportedDayBesideAHubsDayIsKeptAsideAndItsOtherDaysCounted(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, _) = try await world.user()
        let service = LocalHealthService(store: world.store, userID: user.id, dayZone: Self.berlin.timeZone)
        let phone = try await world.device(.activityTracker, named: "Phone", for: service)
        let now = date("2026-11-21 22:00", in: Self.berlin)
        _ = try await service.applyArrival([
            Self.put("hc-1", Field.steps, 4_100, at: "2026-11-20 09:00", on: phone),
            Self.put("hc-2", Field.steps, 6_150, at: "2026-11-20 14:00", on: phone),
        ], path: .healthConnect, now: now)

        func record(_ value: Int, at stamp: String) -> String {
            #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="\#(stamp)" "#
                + #"startDate="\#(stamp)" endDate="\#(stamp)" value="\#(value)"/>"#
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-22 10:00:00 +0100"/>
            \(record(5_000, at: "2026-11-20 10:00:00 +0100"))
            \(record(4_700, at: "2026-11-20 17:00:00 +0100"))
            \(record(7_000, at: "2026-11-21 11:00:00 +0100"))
            </HealthData>

            """
        let file = world.folder.url.appendingPathComponent("export.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let imported = try await world.store.importFile(file, userID: user.id, timeZone: Self.berlin.timeZone,
                                                        options: ImportOptions(path: .imported), now: now)
        #expect(imported.tally.added[.steps] == 3)
        try await service.settleDuplicates(after: imported.tally)

        #expect(try await Self.steps(service) == [10_250, 7_000], "the 20th is the hub's; the 21st only the file has")
        #expect(try await service.asideReadings(from: .min, to: .max).map(\.path) == [.imported, .imported])
        #expect(try await service.preferSource(.imported, for: .steps) == 2)
        #expect(try await Self.steps(service) == [9_700, 7_000])
    }
}

