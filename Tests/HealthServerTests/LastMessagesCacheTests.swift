import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
import SQLiteStorage

/// `messages/last` answers are kept while the store is unchanged: a dashboard polling them must still see
/// every new reading, and a kept answer must never outlive its token or reach another user.
@Suite struct LastMessagesCacheTests {
    static func weights(_ reply: Reply) throws -> [Double] {
        let data = try #require(try reply.json["data"] as? [[String: Any]])
        return data.compactMap { ($0["data"] as? [String: Any])?["weight"] as? Double }
    }

    @Test(arguments: StoreEngine.available) func aReadingPostedThroughTheServerShowsInTheNextAnswer(_ engine: StoreEngine) async throws {
        // A window far longer than the test: only the server's own bookkeeping can make the write show.
        try await ServerWorld.run(engine: engine, storeVersionWindow: .seconds(3600)) { world in
            let token = try await world.token()
            let last = "/v1.1/messages/last?sdids=\(world.aliceScale.id)&count=5"
            #expect(try Self.weights(try await world.get(last, token: token)) == [])  // now kept by the server
            let posted = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":71.5}}"#)
            #expect(posted.status == 200)
            #expect(try Self.weights(try await world.get(last, token: token)) == [71.5])
        }
    }

    @Test func aReadingWrittenByAnotherProcessShowsInTheNextAnswerAfterTheVersionWindow() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            let last = "/v1.1/messages/last?sdids=\(world.aliceScale.id)&count=5"
            #expect(try Self.weights(try await world.get(last, token: token)) == [])
            #expect(try Self.weights(try await world.get(last, token: token)) == [])  // answered from what was kept
            // Another hmon on the same file (its own connections, as `hmon add weight` would have).
            let other = try LocalStore(url: world.sqlite.url, passwordHasher: .fastForTests)
            _ = try await other.post(NewMessage(sdid: world.aliceScale.id, data: ["weight": .number(70.2)]), userID: world.alice.id)
            // The server looks at the store's version every 50 ms: the next answers bring the reading.
            let shown = try await Waiting.until { try Self.weights(try await world.get(last, token: token)) == [70.2] }
            #expect(shown, "a reading written by another process shows in the server's answer")
        }
    }

    @Test(arguments: StoreEngine.available) func anAnswerKeptForOneUserIsNeverGivenToAnother(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            try await world.store.post(NewMessage(sdid: world.aliceScale.id, data: ["weight": .number(68)]), userID: world.alice.id)
            let last = "/v1.1/messages/last?sdids=\(world.aliceScale.id)&count=5"
            #expect(try Self.weights(try await world.get(last, token: try await world.token())) == [68])
            let bobs = try await world.get(last, token: try await world.token(for: "bob"))
            #expect(bobs.status == 403)
            #expect(try await world.get(last).status == 401)
        }
    }

    @Test func aTokenRevokedOnOneServerIsRefusedByAnotherOnTheSameFileWithinASecond() async throws {
        try await ServerWorld.run { world in
            let otherStore = try LocalStore(url: world.sqlite.url, passwordHasher: .fastForTests)
            let other = try await RunningServer.start(
                store: otherStore, configuration: .forTests(clock: { world.clock.now }))
            let token = try await world.token()
            let last = other.url.absoluteString + "/v1.1/messages/last?sdids=\(world.aliceScale.id)&count=5"
            let first = try await RawHTTP.send("GET", last, token: token)
            #expect(first.status == 200)  // the token and the answer are now kept by the other server
            let revoked = try await RawHTTP.send("PUT", world.url.absoluteString + "/revokeAccessToken?token=\(token)", token: token)
            #expect(revoked.status == 200)
            // Within a second by the server's own look at the store (every 50 ms); the wait only guards a hang.
            let refused = try await Waiting.until { try await RawHTTP.send("GET", last, token: token).status == 401 }
            await other.stop()
            #expect(refused, "a token revoked on one server stops working on the other")
        }
    }
}
