import Foundation
import HealthCore
import HealthModel
import HealthServer
import Testing

/// `GET`/`PUT`/`DELETE /v1.1/messages/{mid}` (hmon's extension): the owner corrects or deletes a reading;
/// anyone else gets the contract's 403, an unknown id 404, and nothing changes.
@Suite struct ReadingCorrectionAPITests {
    @Test func theOwnerDeletesAReadingAndOthersGet403() async throws {
        try await ServerWorld.run { world in
            let mid = try await world.store.post(NewMessage(sdid: world.aliceScale.id, data: [Field.weight: .number(72.4)]),
                                                 userID: world.alice.id)
            let bobToken = try await world.token(for: "bob")
            let refused = try await RawHTTP.send("DELETE", world.url.absoluteString + "/v1.1/messages/\(mid)", token: bobToken)
            #expect(refused.status == 403)
            #expect(refused.errorCode == 403)
            #expect(!refused.text.contains("72.4"))
            #expect(try await world.store.messageCount(userID: world.alice.id) == 1)
            let peek = try await world.get("/v1.1/messages/\(mid)", token: bobToken)
            #expect(peek.status == 403)
            #expect(!peek.text.contains("72.4"))

            let noToken = try await RawHTTP.send("DELETE", world.url.absoluteString + "/v1.1/messages/\(mid)")
            #expect(noToken.status == 401)

            let aliceToken = try await world.token()
            let deleted = try await RawHTTP.send("DELETE", world.url.absoluteString + "/v1.1/messages/\(mid)", token: aliceToken)
            #expect(deleted.status == 200)
            #expect(((try deleted.json)["data"] as? [String: Any])?["mid"] as? String == mid)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)

            let again = try await RawHTTP.send("DELETE", world.url.absoluteString + "/v1.1/messages/\(mid)", token: aliceToken)
            #expect(again.status == 404)
            #expect(again.errorCode == 404)
            // `messages/last` is still the contract's route, not a reading called "last".
            #expect(try await world.get("/v1.1/messages/last?sdids=\(world.aliceScale.id)", token: aliceToken).status == 200)
        }
    }

    @Test func anEditIsCheckedLikeANewReadingAndAnsweredAsStored() async throws {
        try await ServerWorld.run { world in
            let ts = Date().millisecondsSince1970 - 3_600_000
            let mid = try await world.store.post(NewMessage(sdid: world.aliceScale.id, ts: ts, data: [Field.weight: .number(27)]),
                                                 userID: world.alice.id)
            let token = try await world.token()
            let url = world.url.absoluteString + "/v1.1/messages/\(mid)"
            let json = ["Content-Type": "application/json"]

            let tooHeavy = try await RawHTTP.send("PUT", url, token: token, headers: json, body: Data(#"{"data":{"weight":720}}"#.utf8))
            #expect(tooHeavy.status == 400)
            #expect(tooHeavy.errorCode == 4001)
            #expect(tooHeavy.text.contains("outside 1–650 kg"))

            let bobs = try await RawHTTP.send("PUT", url, token: try await world.token(for: "bob"), headers: json,
                                              body: Data(#"{"data":{"weight":90}}"#.utf8))
            #expect(bobs.status == 403)
            #expect(try await world.store.reading(id: mid, userID: world.alice.id).data == [Field.weight: .number(27)])

            let fixed = try await RawHTTP.send("PUT", url, token: token, headers: json, body: Data(#"{"data":{"weight":72.6}}"#.utf8))
            #expect(fixed.status == 200)
            let data = try #require((try fixed.json)["data"] as? [String: Any])
            #expect(data["mid"] as? String == mid)
            #expect((data["data"] as? [String: Any])?["weight"] as? Double == 72.6)
            #expect(try await world.store.reading(id: mid, userID: world.alice.id).data == [Field.weight: .number(72.6)])
        }
    }

    @Test func theRemoteServiceCorrectsListsAndDeletesThroughTheServer() async throws {
        try await ServerWorld.run { world in
            let client = try await world.aliceClient()
            let now = Date().millisecondsSince1970
            let first = try await client.post(NewMessage(sdid: world.aliceScale.id, ts: now - 7_200_000, data: [Field.weight: .number(72)]))
            let second = try await client.post(NewMessage(sdid: world.aliceScale.id, ts: now - 3_600_000, data: [Field.weight: .number(27)]))
            #expect(try await client.readings(ReadingsQuery()).map(\.mid) == [second, first])

            let edited = try await client.editReading(id: second, ReadingChange(data: [Field.weight: .number(72.5)]))
            #expect(edited.data == [Field.weight: .number(72.5)])
            #expect(try await client.reading(id: second).data == [Field.weight: .number(72.5)])

            try await client.deleteReading(id: first)
            #expect(try await client.readings(ReadingsQuery()).map(\.mid) == [second])
            await #expect(throws: HealthError.unknownReading(first)) { try await client.deleteReading(id: first) }

            let bobsReading = try await world.store.post(NewMessage(sdid: world.bobScale.id, data: [Field.weight: .number(88)]),
                                                         userID: world.bob.id)
            await #expect(throws: HealthError.notYourReading(bobsReading)) { try await client.deleteReading(id: bobsReading) }
        }
    }
}
