import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing

/// The `/v1.1` API as a client sees it: shapes and units exactly as the contract writes them.
@Suite struct APITests {
    @Test(arguments: StoreEngine.available) func usersSelfServesTheContractsFieldsWithTimesInSeconds(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let reply = try await world.get("/v1.1/users/self", token: try await world.token())
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            let data = try #require(try reply.json["data"] as? [String: Any])
            #expect(data["id"] as? String == world.alice.id)
            #expect(data["name"] as? String == "alice")
            #expect(data["email"] as? String == "alice@example.com")
            #expect(data["fullName"] as? String == "Alice Example")
            #expect(data["saIdentity"] is String)
            let created = try #require(data["createdOn"] as? Int)
            #expect(created == Int(world.alice.createdOn.timeIntervalSince1970))
            #expect(data["modifiedOn"] as? Int == Int(world.alice.modifiedOn.timeIntervalSince1970))
        }
    }

    @Test(arguments: StoreEngine.available) func devicesListTheUsersOwnDevicesInPages(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            _ = try await world.store.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id,
                                                userID: world.alice.id)
            let token = try await world.token()
            let all = try await world.get("/v1.1/users/\(world.alice.id)/devices?offset=0&count=100&includeProperties=1", token: token)
            #expect(all.status == 200)
            let body = try all.json
            #expect(body["total"] as? Int == 2)
            #expect(body["count"] as? Int == 2)
            let devices = try #require((body["data"] as? [String: Any])?["devices"] as? [[String: Any]])
            #expect(devices.map { $0["name"] as? String } == ["Bathroom scale", "Food log"])
            let scale = devices[0]
            #expect(scale["id"] as? String == world.aliceScale.id)
            #expect(scale["uid"] as? String == world.alice.id)
            #expect(scale["dtid"] as? String == ServerWorld.withings)
            #expect(scale["manifestVersionPolicy"] as? String == "LATEST")
            #expect(scale["needProviderAuth"] as? Bool == false)
            #expect(scale["createdOn"] as? Int == Int(world.aliceScale.createdOn.millisecondsSince1970))
            #expect(scale["properties"] is [String: Any])

            let second = try await world.get("/v1.1/users/\(world.alice.id)/devices?offset=1&count=1&includeProperties=true", token: token)
            let page = try second.json
            #expect(page["total"] as? Int == 2)
            #expect(page["offset"] as? Int == 1)
            #expect(((page["data"] as? [String: Any])?["devices"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Food log"])
        }
    }

    @Test(arguments: StoreEngine.available) func aDeviceTypeIsFoundByNameAndItsManifestGivesUnits(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let client = try await world.aliceClient()
            let withings = try #require(try await client.deviceType(named: "Withings Device"))
            #expect(withings.id == ServerWorld.withings)
            let manifest = try await client.manifest(ofType: withings.id)
            #expect(manifest.field("weight")?.unit == "kg")
            #expect(manifest.field("weight")?.type == .double)
            #expect(manifest.field("heartRate")?.unit == "b/min")
            #expect(manifest.fields.map(\.name) == BuiltInDeviceType.withings.manifest.fields.map(\.name))
            #expect(try await client.deviceType(named: "No Such Thing") == nil)

            let raw = try await world.get("/v1.1/devicetypes?name=Withings%20Device&offset=0&count=1", token: try await world.token())
            let types = try #require((try raw.json["data"] as? [String: Any])?["deviceTypes"] as? [[String: Any]])
            #expect(types.first?["uniqueName"] as? String == "withings_device")
            #expect(types.first?["published"] as? Bool == true)
            #expect(types.first?.keys.contains("description") == true)
        }
    }

    @Test(arguments: StoreEngine.available) func aPostedReadingComesFirstInMessagesLast(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let client = try await world.aliceClient()
            let earlier = Date().addingTimeInterval(-86_400).millisecondsSince1970
            try await client.post(NewMessage(sdid: world.aliceScale.id, ts: earlier, data: ["weight": .number(73.0)]))
            let mid = try await client.post(NewMessage(sdid: world.aliceScale.id, data: ["weight": .number(72.4)]))

            let last = try await client.lastMessages(device: world.aliceScale.id, count: 20, field: "weight")
            #expect(last.map(\.mid).first == mid)
            #expect(last.first?.data["weight"] == .number(72.4))
            #expect(last.first?.sdtid == ServerWorld.withings)
            #expect(last.first?.uid == world.alice.id)
            #expect(last.count == 2)

            let raw = try await world.get("/v1.1/messages/last?sdids=\(world.aliceScale.id)&count=20", token: try await world.token())
            let body = try raw.json
            #expect(body["sdids"] as? String == world.aliceScale.id)
            #expect(body["count"] as? Int == 20)
            #expect(body["size"] as? Int == 2)
            let first = try #require((body["data"] as? [[String: Any]])?.first)
            #expect(first["mid"] as? String == mid)
            #expect(first["ts"] is Int)
            #expect(first["cts"] is Int)
        }
    }

    @Test(arguments: StoreEngine.available) func messagesLastOverTwoDevicesMergesThemNewestFirst(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let travel = try await world.store.addDevice(name: "Travel scale", typeID: ServerWorld.withings, userID: world.alice.id)
            let base = Date().addingTimeInterval(-3600).millisecondsSince1970
            for (offset, device) in [(0, world.aliceScale.id), (1000, travel.id), (2000, world.aliceScale.id), (3000, travel.id)] {
                try await world.store.post(NewMessage(sdid: device, ts: base + Int64(offset), data: ["weight": .number(70)]),
                                           userID: world.alice.id)
            }
            let reply = try await world.get("/v1.1/messages/last?sdids=\(world.aliceScale.id),\(travel.id)&count=3",
                                            token: try await world.token())
            #expect(reply.status == 200)
            let data = try #require(try reply.json["data"] as? [[String: Any]])
            #expect(data.compactMap { $0["ts"] as? Int } == [3000, 2000, 1000].map { Int(base) + $0 })
            #expect(data.compactMap { $0["sdid"] as? String } == [travel.id, world.aliceScale.id, travel.id])
            #expect((data.first?["data"] as? [String: Any])?["weight"] as? Double == 70)
        }
    }

    @Test(arguments: StoreEngine.available) func pagingThroughMessagesWithNextVisitsEveryReadingOnce(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let client = try await world.aliceClient()
            let start = Date().addingTimeInterval(-30 * 86_400).millisecondsSince1970
            var posted: [String] = []
            for day in 0..<7 {
                posted.append(try await client.post(NewMessage(sdid: world.aliceScale.id, ts: start + Int64(day) * 86_400_000,
                                                               data: ["weight": .number(70 + Double(day) / 10)])))
            }
            var seen: [String] = []
            var query = MessageQuery(sdid: world.aliceScale.id, startDate: start, endDate: Date().millisecondsSince1970,
                                     order: .asc, count: 3)
            var pages = 0
            repeat {
                let page = try await client.messages(query)
                seen += page.messages.map(\.mid)
                query.offset = page.next
                pages += 1
            } while query.offset != nil && pages < 10
            #expect(seen == posted)
            #expect(pages == 3)
        }
    }

    @Test(arguments: StoreEngine.available) func theProfileTravelsOverTheHmonExtension(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let client = try await world.aliceClient()
            var profile = try await client.profile()
            profile.heightCm = 172
            profile.sex = .female
            profile.birthDate = Day(year: 1990, month: 4, day: 2)
            profile.massUnit = .lb
            try await client.updateProfile(profile)
            #expect(try await world.store.profile(userID: world.alice.id) == profile)
            #expect(try await client.profile() == profile)
        }
    }

    @Test(arguments: StoreEngine.available) func aDeviceAddedOverTheAPIBelongsToTheUser(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let client = try await world.aliceClient()
            let device = try await client.addDevice(name: "Calorie Tracker",
                                                    typeID: BuiltInDeviceType.calorieTracker.deviceType.id)
            #expect(device.uid == world.alice.id)
            #expect(try await client.devices().map(\.id).contains(device.id))
            await #expect(throws: HealthError.unknownDeviceType("dtnope")) {
                try await client.addDevice(name: "Mystery", typeID: "dtnope")
            }
        }
    }
}
