import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 26, item 1: filters the server did not implement were ignored, so a client got unfiltered data and
/// could not tell. Each of SAMI's parameters is now honoured or refused with 400 naming it.
@Suite struct SAMIParameterTests {
    static func deviceNames(_ reply: Reply) throws -> [String] {
        let devices = ((try reply.json["data"] as? [String: Any])?["devices"] as? [[String: Any]]) ?? []
        return devices.compactMap { $0["name"] as? String }.sorted()
    }

    @Test func theDevicesFiltersAreHonouredOrRefused() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token(for: "alice")
            let food = try await world.store.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id,
                                                       userID: world.alice.id, now: Date())
            let path = "/v1.1/users/\(world.alice.id)/devices"
            #expect(try Self.deviceNames(try await world.get(path, token: token)) == ["Bathroom scale", "Food log"])
            #expect(try Self.deviceNames(try await world.get(path + "?dtid=\(food.dtid)", token: token)) == ["Food log"])
            #expect(try Self.deviceNames(try await world.get(path + "?owner=ME", token: token)) == ["Bathroom scale", "Food log"])
            #expect(try Self.deviceNames(try await world.get(path + "?owner=SHARED_WITH_ME", token: token)) == [])
            let badOwner = try await world.get(path + "?owner=SOMEONE", token: token)
            #expect(badOwner.status == 400 && badOwner.text.contains("owner"), "\(badOwner.text)")
            let shared = try await world.get(path + "?includeShareInfo=true", token: token)
            #expect(shared.status == 400 && shared.text.contains("includeShareInfo"), "\(shared.text)")
            let tagged = try await world.get("/v1.1/devicetypes?tags=health", token: token)
            #expect(tagged.status == 400 && tagged.text.contains("tags"), "\(tagged.text)")
        }
    }

    @Test func messagesByIdAreServedAndUnservedParametersAreRefused() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token(for: "alice")
            let posted = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.4}}"#)
            let mid = try #require(((try posted.json["data"] as? [String: Any])?["mid"] as? String))
            let byID = try await world.get("/v1.1/messages?mid=\(mid)", token: token)
            #expect(byID.status == 200, "\(byID.text)")
            let data = try #require(try byID.json["data"] as? [[String: Any]])
            #expect(data.count == 1 && data.first?["mid"] as? String == mid)
            #expect(try await world.get("/v1.1/messages?mid=\(mid)", token: try await world.token(for: "bob")).status != 200)
            for (parameter, value) in [("filter", "weight%3E70"), ("sdids", world.aliceScale.id), ("sdtids", world.aliceScale.dtid)] {
                let refused = try await world.get("/v1.1/messages?sdid=\(world.aliceScale.id)&startDate=0&endDate=1&\(parameter)=\(value)", token: token)
                #expect(refused.status == 400, "\(parameter): \(refused.text)")
                #expect(refused.text.contains("\"\(parameter)\""), "\(parameter): \(refused.text)")
            }
        }
    }

    /// SAMI's `uid` + dates form: every device of the user in one time-ordered range, paged like one device's.
    @Test func messagesByUserCoverEveryDeviceInTimeOrderAndPage() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token(for: "alice")
            let food = try await world.store.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id,
                                                       userID: world.alice.id, now: Date())
            let base: Int64 = 1_780_000_000_000
            let posts = [(world.aliceScale.id, base, #"{"weight":72.4}"#), (food.id, base + 1000, #"{"calories":450}"#),
                         (world.aliceScale.id, base + 2000, #"{"weight":72.1}"#)]
            for (sdid, ts, data) in posts {
                let posted = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(sdid)","ts":\#(ts),"data":\#(data)}"#)
                #expect(posted.status == 200, "\(posted.text)")
            }
            let range = "startDate=\(base)&endDate=\(base + 2000)&order=asc"
            let first = try await world.get("/v1.1/messages?uid=\(world.alice.id)&\(range)&count=2", token: token)
            #expect(first.status == 200, "\(first.text)")
            let firstData = try #require(try first.json["data"] as? [[String: Any]])
            #expect(firstData.compactMap { $0["sdid"] as? String } == [world.aliceScale.id, food.id])
            #expect(try first.json["sdid"] == nil, "a range over every device names none")
            let next = try #require(try first.json["next"] as? String)
            let second = try await world.get("/v1.1/messages?uid=self&\(range)&count=2&offset=\(next)", token: token)
            let secondData = try #require(try second.json["data"] as? [[String: Any]])
            #expect(secondData.compactMap { $0["ts"] as? Int64 } == [base + 2000])
            #expect(try second.json["next"] == nil)
            let weightsOnly = try await world.get("/v1.1/messages?uid=self&\(range)&fieldPresence=weight", token: token)
            #expect((try weightsOnly.json["data"] as? [[String: Any]])?.count == 2)
            let someoneElse = try await world.get("/v1.1/messages?uid=\(world.alice.id)&\(range)", token: try await world.token(for: "bob"))
            #expect(someoneElse.status == 403, "\(someoneElse.text)")
            let neither = try await world.get("/v1.1/messages?\(range)", token: token)
            #expect(neither.status == 400 && neither.text.contains("uid"), "\(neither.text)")
        }
    }
    /// SAMI's aggregates of one field over a range. Hand-worked for steps 4000, 6000, 8000 (the 2500-step
    /// reading falls outside the range): count 3, sum 18000, mean 6000, min 4000, max 8000, population
    /// variance ((−2000)² + 0² + 2000²) / 3 = 2,666,666.67.
    @Test(arguments: StoreEngine.available) func aggregatesOfAFieldAreCountedSummedAndSpread(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token(for: "alice")
            let tracker = try await world.store.addDevice(name: "Watch", typeID: BuiltInDeviceType.activityTracker.deviceType.id,
                                                          userID: world.alice.id, now: Date())
            let base: Int64 = 1_780_000_000_000
            for (offset, steps) in [(0, 4000), (3_600_000, 6000), (7_200_000, 8000), (40 * 86_400_000, 2500)] {
                let posted = try await world.post("/v1.1/messages", token: token,
                                                  json: #"{"sdid":"\#(tracker.id)","ts":\#(base + Int64(offset)),"data":{"steps":\#(steps)}}"#)
                #expect(posted.status == 200, "\(posted.text)")
            }
            let path = "/v1.1/messages/analytics/aggregates?sdid=\(tracker.id)&field=steps&startDate=\(base)&endDate=\(base + 86_400_000)"
            let reply = try await world.get(path, token: token)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["size"] as? Int == 1 && reply.json["field"] as? String == "steps")
            let figures = try #require((try reply.json["data"] as? [[String: Any]])?.first)
            #expect(figures["count"] as? Int == 3)
            #expect(figures["sum"] as? Double == 18000 && figures["mean"] as? Double == 6000)
            #expect(figures["min"] as? Double == 4000 && figures["max"] as? Double == 8000)
            #expect(abs((figures["variance"] as? Double ?? 0) - 8_000_000.0 / 3) < 1e-6)
            let tooLong = try await world.get("/v1.1/messages/analytics/aggregates?sdid=\(tracker.id)&field=steps&startDate=\(base)&endDate=\(base + 32 * 86_400_000)", token: token)
            #expect(tooLong.status == 400 && tooLong.text.contains("31 days"), "\(tooLong.text)")
            let notMine = try await world.get(path, token: try await world.token(for: "bob"))
            #expect(notMine.status == 403 || notMine.status == 404, "\(notMine.text)")
        }
    }
}
