import Foundation
import TestSupport
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

@Suite struct MessageTests {
    @Test(arguments: StoreEngine.available) func aReadingComesBackAsItWasPosted(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Bathroom scale", for: service)
        let ts = date("2026-11-20 07:30").millisecondsSince1970
        let mid = try await service.post(NewMessage(sdid: scale.id, ts: ts, data: ["weight": .number(72.4), "heartRate": .number(61)]))
        let last = try await service.lastMessages(device: scale.id, count: 1, field: nil)
        #expect(last.count == 1)
        let reading = try #require(last.first)
        #expect(reading.mid == mid)
        #expect(reading.ts == ts)
        #expect(reading.uid == user.id)
        #expect(reading.sdtid == BuiltInDeviceType.withings.deviceType.id)
        #expect(reading.data == ["weight": .number(72.4), "heartRate": .number(61)])
    }

    @Test(arguments: StoreEngine.available) func theLastReadingsComeNewestFirstAndCanBeLimitedToAField(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Bathroom scale", for: service)
        let start = date("2026-11-01 07:00").millisecondsSince1970
        for i in 0..<10 {
            let data: [String: FieldValue] = i % 3 == 0 ? ["heartRate": .number(60)] : ["weight": .number(70 + Double(i) / 10)]
            try await service.post(NewMessage(sdid: scale.id, ts: start + Int64(i) * 86_400_000, data: data))
        }
        let last = try await service.lastMessages(device: scale.id, count: 4, field: nil)
        #expect(last.map(\.ts) == (6...9).reversed().map { start + Int64($0) * 86_400_000 })
        let weights = try await service.lastMessages(device: scale.id, count: 4, field: "weight")
        #expect(weights.compactMap { $0.data["weight"]?.number } == [70.8, 70.7, 70.5, 70.4])
        #expect(try await service.lastMessages(device: scale.id, count: 4, field: "hydration").isEmpty)
    }

    @Test(arguments: StoreEngine.available) func aTimeRangeIsReadInPagesFollowingNext(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        let food = try await world.device(.calorieTracker, named: "Food log", for: service)
        let start = date("2026-11-20 00:00").millisecondsSince1970
        for i in 0..<25 {
            try await service.post(NewMessage(sdid: food.id, ts: start + Int64(i) * 60_000, data: ["calories": .number(Double(i))]))
        }
        // Two readings at the same instant must not be lost or repeated across a page boundary.
        try await service.post(NewMessage(sdid: food.id, ts: start + 9 * 60_000, data: ["calories": .number(100)]))
        for order in [HealthModel.SortOrder.asc, .desc] {
            var query = MessageQuery(sdid: food.id, startDate: start + 60_000, endDate: start + 23 * 60_000, order: order, count: 5)
            var seen: [Message] = []
            var pages = 0
            while true {
                let page = try await service.messages(query)
                seen += page.messages
                pages += 1
                guard let next = page.next else { break }
                query.offset = next
            }
            #expect(seen.count == 24)
            #expect(Set(seen.map(\.mid)).count == 24)
            #expect(pages == 5)
            let times = seen.map(\.ts)
            #expect(times == (order == .asc ? times.sorted() : times.sorted(by: >)))
        }
    }

    @Test(arguments: StoreEngine.available) func badReadingsAreRefusedAndLeaveTheStoreUnchanged(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Bathroom scale", for: service)
        let food = try await world.device(.calorieTracker, named: "Food log", for: service)
        try await service.post(NewMessage(sdid: scale.id, data: ["weight": .number(72)]))
        let before = try await world.store.changeToken()

        let bad: [(NewMessage, String)] = [
            (NewMessage(sdid: scale.id, data: ["weight": .number(700)]), "weight 700 kg is outside 1–650 kg"),
            (NewMessage(sdid: scale.id, data: ["weight": .number(0.5)]), "weight 0.5 kg is outside 1–650 kg"),
            (NewMessage(sdid: food.id, data: ["calories": .number(-5)]), "calories -5 kcal is negative"),
            (NewMessage(sdid: food.id, data: ["calories": .number(50_000)]), "not below 50,000 kcal"),
            (NewMessage(sdid: food.id, data: ["calories": .text("lots")]), "calories must be a number"),
            (NewMessage(sdid: food.id, data: ["weight": .number(70)]), "has no field \"weight\""),
            (NewMessage(sdid: food.id, data: [:]), "no data"),
            (NewMessage(sdid: "nope", data: ["weight": .number(70)]), "no device \"nope\""),
        ]
        for (message, expected) in bad {
            let error = await #expect(throws: HealthError.self) { try await service.post(message) }
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "no error") lacks \(expected)")
        }
        #expect(try await world.rowCount("messages") == 1)
        #expect(try await world.store.changeToken() == before)
    }

    @Test(arguments: StoreEngine.available) func anotherUsersDeviceCanBeNeitherReadNorWritten(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user("alice")
        let (_, bob) = try await world.user("bob")
        let scale = try await world.device(.withings, named: "Bathroom scale", for: alice)
        try await alice.post(NewMessage(sdid: scale.id, data: ["weight": .number(60)]))
        await #expect(throws: HealthError.notYourDevice(scale.id)) {
            try await bob.post(NewMessage(sdid: scale.id, data: ["weight": .number(90)]))
        }
        await #expect(throws: HealthError.notYourDevice(scale.id)) {
            try await bob.lastMessages(device: scale.id, count: 5, field: nil)
        }
        #expect(try await bob.devices().isEmpty)
        #expect(try await world.rowCount("messages") == 1)
    }

    @Test(arguments: StoreEngine.available) func devicesNeedAKnownTypeAndADistinctName(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        _ = try await world.device(.withings, named: "Bathroom scale", for: service)
        await #expect(throws: HealthError.unknownDeviceType("dtnope")) { try await service.addDevice(name: "X", typeID: "dtnope") }
        await #expect(throws: HealthError.self) {
            try await service.addDevice(name: "bathroom SCALE", typeID: BuiltInDeviceType.withings.deviceType.id)
        }
        #expect(try await service.devices().map(\.name) == ["Bathroom scale"])
        #expect(try await service.deviceType(named: "Calorie Tracker")?.id == BuiltInDeviceType.calorieTracker.deviceType.id)
    }
}
