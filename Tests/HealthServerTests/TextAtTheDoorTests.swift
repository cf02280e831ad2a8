import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
import TestSupport

/// Issue 29, case 6: a NUL in a reading's text was accepted, and afterwards that user's lists and exports
/// failed on PostgreSQL (which cannot store NUL in text); `%00` in a query parameter answered 500. Now one
/// rule for both engines: control and format characters are refused at the door, naming the field.
@Suite struct TextAtTheDoorTests {
    @Test(arguments: StoreEngine.available) func aControlCharacterInAReadingsTextIsRefusedAndNothingStored(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            let food = try await world.device(.calorieTracker, named: "Food log", for: world.alice)
            for text in [#"soup\u0000"#, #"soup\u001b[2J"#, #"soup\u202e"#] {
                let reply = try await world.post("/v1.1/messages", token: token,
                                                 json: #"{"sdid":"\#(food.id)","data":{"calories":300,"comments":"\#(text)"}}"#)
                #expect(reply.status == 400, "\(text): \(reply.text)")
                #expect(reply.text.contains("comments"), "the refusal names the field: \(reply.text)")
            }
            #expect(try await world.store.lastMessages(deviceID: food.id, userID: world.alice.id, count: 5).isEmpty)
            // The same reading without the character is fine, and every list still answers.
            let fine = try await world.post("/v1.1/messages", token: token,
                                            json: #"{"sdid":"\#(food.id)","data":{"calories":300,"comments":"soup"}}"#)
            #expect(fine.status == 200, "\(fine.text)")
        }
    }

    @Test(arguments: StoreEngine.available) func aControlCharacterInAQueryParameterIsABadRequestNeverA500(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            let scale = world.aliceScale.id
            for path in ["/v1.1/messages/last?sdids=\(scale)&count=5&fieldPresence=weight%00",
                         "/v1.1/messages?sdid=\(scale)%00&startDate=0&endDate=1000",
                         "/v1.1/devicetypes?name=Withings%00",
                         "/v1.1/messages/last?sdids=\(scale)&count=5&field%00Presence=weight"] {
                let reply = try await world.get(path, token: token)
                #expect(reply.status == 400, "\(path): \(reply.status) \(reply.text)")
                #expect(reply.text.contains("control character"), "\(path): \(reply.text)")
            }
        }
    }
}
