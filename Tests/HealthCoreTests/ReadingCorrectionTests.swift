import Foundation
import GRDB
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// Readings a person corrects or deletes: checked like new ones, owner only, and gone from every
/// derived figure at once, including the insights' kept per-day sums.
@Suite struct ReadingCorrectionTests {
    let berlin = calendar("Europe/Berlin")
    let tenth = Day(year: 2026, month: 11, day: 10)
    let eleventh = Day(year: 2026, month: 11, day: 11)

    @Test func anEditAndADeleteChangeTheKeptDailySums() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        func post(_ text: String, _ kcal: Double) async throws -> String {
            try await service.post(NewMessage(sdid: food.id, ts: date(text, in: berlin).millisecondsSince1970,
                                              data: [Field.calories: .number(kcal)]))
        }
        _ = try await post("2026-11-10 08:00", 400)
        let lunch = try await post("2026-11-10 12:00", 700)
        let snack = try await post("2026-11-10 16:00", 300)
        let days = tenth...eleventh
        // 400 + 700 + 300 = 1400 kcal in three readings; the sums are now kept.
        #expect(try await service.dailyTotals(days: days, calendar: berlin)[tenth]?[.dietaryEnergy] == SumCount(sum: 1400, count: 3))

        // Same count, same rowids: only the edit itself can tell the kept sums are stale. 400 + 550 + 300 = 1250.
        try await service.editReading(id: lunch, ReadingChange(data: [Field.calories: .number(550)]))
        #expect(try await service.dailyTotals(days: days, calendar: berlin)[tenth]?[.dietaryEnergy] == SumCount(sum: 1250, count: 3))

        // The newest reading deleted, and a new one added: SQLite hands it the freed rowid, so count and
        // rowid sum match the kept ones again. 400 + 550 + 100 = 1050.
        try await service.deleteReading(id: snack)
        _ = try await post("2026-11-10 17:00", 100)
        #expect(try await service.dailyTotals(days: days, calendar: berlin)[tenth]?[.dietaryEnergy] == SumCount(sum: 1050, count: 3))

        // Moved to the next day: 400 + 100 = 500 on the 10th, 550 on the 11th.
        try await service.editReading(id: lunch, ReadingChange(ts: date("2026-11-11 12:00", in: berlin).millisecondsSince1970))
        let moved = try await service.dailyTotals(days: days, calendar: berlin)
        #expect(moved[tenth]?[.dietaryEnergy] == SumCount(sum: 500, count: 2))
        #expect(moved[eleventh]?[.dietaryEnergy] == SumCount(sum: 550, count: 1))
        // And what a store summing afresh says is the same.
        try await world.store.forgetDayTotals()
        #expect(try await service.dailyTotals(days: days, calendar: berlin) == moved)
    }

    @Test func aDeletedWeightLeavesTheSeriesTheLatestReadingAndTheEnergySummary() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        _ = try await service.post(NewMessage(sdid: scale.id, ts: date("2026-11-10 07:00", in: berlin).millisecondsSince1970,
                                              data: [Field.weight: .number(72)]))
        // A mistyped weigh-in the next morning.
        let typo = try await service.post(NewMessage(sdid: scale.id, ts: date("2026-11-11 07:00", in: berlin).millisecondsSince1970,
                                                     data: [Field.weight: .number(27)]))
        #expect(try await service.weightSeries(days: tenth...eleventh, calendar: berlin).points.last?.kg == 27)

        try await service.editReading(id: typo, ReadingChange(data: [Field.weight: .number(72.6)]))
        #expect(try await service.weightSeries(days: tenth...eleventh, calendar: berlin).points.last?.kg == 72.6)
        #expect(try await service.devicesOverview().latestReadings[scale.id]?.data[Field.weight] == .number(72.6))

        try await service.deleteReading(id: typo)
        let series = try await service.weightSeries(days: tenth...eleventh, calendar: berlin)
        // The 11th carries the 10th's 72 forward; nothing of 72.6 is left.
        #expect(series.points.map(\.kg) == [72, 72])
        #expect(try await service.devicesOverview().latestReadings[scale.id]?.data[Field.weight] == .number(72))
        #expect(try await world.store.messageCount(userID: #require(service.userID)) == 1)
    }

    @Test func anEditGoesThroughTheRulesOfANewReading() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let ts = date("2026-11-10 07:00", in: berlin).millisecondsSince1970
        let mid = try await service.post(NewMessage(sdid: scale.id, ts: ts, data: [Field.weight: .number(72)]))
        let stored = try await service.reading(id: mid)

        await #expect(throws: HealthError.invalidValue("weight 720 kg is outside 1–650 kg: check the number and its unit")) {
            try await service.editReading(id: mid, ReadingChange(data: [Field.weight: .number(720)]))
        }
        await #expect(throws: HealthError.self) {
            try await service.editReading(id: mid, ReadingChange(data: ["calories": .number(500)]))  // not a scale's field
        }
        await #expect(throws: HealthError.invalidValue("the reading's time is more than a day in the future: check the date")) {
            try await service.editReading(id: mid, ReadingChange(ts: Date().millisecondsSince1970 + 3 * 86_400_000))
        }
        await #expect(throws: HealthError.self) { try await service.editReading(id: mid, ReadingChange()) }
        #expect(try await service.reading(id: mid) == stored, "nothing was written")

        // Other fields keep their values; the id, device and received time stay.
        let edited = try await service.editReading(id: mid, ReadingChange(data: ["fatRatio": .number(21.5)]))
        #expect(edited.data == [Field.weight: .number(72), "fatRatio": .number(21.5)])
        #expect(try await service.reading(id: mid) == edited)
        #expect((edited.mid, edited.sdid, edited.cts) == (stored.mid, stored.sdid, stored.cts))
    }

    @Test func onlyTheOwnerCorrectsOrDeletesAReading() async throws {
        let world = try TestWorld()
        let (_, alice) = try await world.user("alice")
        let (_, bob) = try await world.user("bob")
        let scale = try await world.device(.withings, named: "Scale", for: alice)
        let mid = try await alice.post(NewMessage(sdid: scale.id, data: [Field.weight: .number(72)]))

        await #expect(throws: HealthError.notYourReading(mid)) { try await bob.deleteReading(id: mid) }
        await #expect(throws: HealthError.notYourReading(mid)) {
            try await bob.editReading(id: mid, ReadingChange(data: [Field.weight: .number(90)]))
        }
        await #expect(throws: HealthError.notYourReading(mid)) { try await bob.reading(id: mid) }
        await #expect(throws: HealthError.unknownReading("nope")) { try await alice.deleteReading(id: "nope") }
        #expect(try await alice.reading(id: mid).data == [Field.weight: .number(72)])

        try await alice.deleteReading(id: mid)
        await #expect(throws: HealthError.unknownReading(mid)) { try await alice.deleteReading(id: mid) }
    }

    @Test func theReadingsOfAllDevicesAreListedByTimeWithAFieldAndALimit() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        let start = date("2026-11-01 07:00", in: berlin).millisecondsSince1970
        var posted: [String] = []
        for i in 0..<6 {
            let device = i.isMultiple(of: 2) ? scale : food
            let data: [String: FieldValue] = i.isMultiple(of: 2) ? [Field.weight: .number(70 + Double(i))] : [Field.calories: .number(500)]
            posted.append(try await service.post(NewMessage(sdid: device.id, ts: start + Int64(i) * 3_600_000, data: data)))
        }
        #expect(try await service.readings(ReadingsQuery()).map(\.mid) == posted.reversed())
        #expect(try await service.readings(ReadingsQuery(limit: 2)).map(\.mid) == [posted[5], posted[4]])
        #expect(try await service.readings(ReadingsQuery(field: Field.weight, order: .asc)).map(\.mid) == [posted[0], posted[2], posted[4]])
        // [start + 1 h, start + 3 h): readings 1 and 2.
        #expect(try await service.readings(ReadingsQuery(from: start + 3_600_000, to: start + 3 * 3_600_000, order: .asc)).map(\.mid)
                == [posted[1], posted[2]])
    }
}
