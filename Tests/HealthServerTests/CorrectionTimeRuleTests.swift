import Foundation
import HealthCore
import HealthModel
import Testing
import TestSupport

/// One time rule for every write: a correction (`PUT /v1.1/messages/{mid}`) refuses the times a post
/// refuses (before 2000, a time in seconds), naming `ts`, and leaves the reading as it was.
@Suite struct CorrectionTimeRuleTests {
    @Test(arguments: StoreEngine.available) func aCorrectionRefusesTheTimesAPostRefuses(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let ts = world.clock.now.millisecondsSince1970 - 3_600_000
            let mid = try await world.store.post(NewMessage(sdid: world.aliceScale.id, ts: ts, data: [Field.weight: .number(72)]),
                                                 userID: world.alice.id)
            let token = try await world.token()
            for refused: Int64 in [0, 1, 946_684_799_999, 1_764_000_000] {
                let post = try await world.post("/v1.1/messages", token: token,
                                                json: #"{"sdid":"\#(world.aliceScale.id)","ts":\#(refused),"data":{"weight":72}}"#)
                let put = try await world.send("PUT", "/v1.1/messages/\(mid)", token: token, json: #"{"ts":\#(refused)}"#)
                #expect(post.status == 400 && put.status == 400, "ts \(refused): POST \(post.status), PUT \(put.status) \(put.text)")
                #expect(put.text.contains("\"ts\"") && put.text.contains("before 2000-01-01"), "\(put.text)")
            }
            #expect(try await world.store.reading(id: mid, userID: world.alice.id).ts == ts, "the reading kept its time")
            let moved = try await world.send("PUT", "/v1.1/messages/\(mid)", token: token, json: #"{"ts":\#(ts - 60_000)}"#)
            #expect(moved.status == 200, "\(moved.text)")
            #expect(try await world.store.reading(id: mid, userID: world.alice.id).ts == ts - 60_000)
        }
    }
}
