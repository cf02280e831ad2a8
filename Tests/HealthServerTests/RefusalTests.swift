import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
import SQLiteStorage
import RemoteClient

/// What the server refuses, and how: always the contract's envelope, never another user's data.
@Suite struct RefusalTests {
    @Test(arguments: StoreEngine.available) func noTokenAndAWrongTokenGet401InTheEnvelope(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            for token in [nil, "not-a-token"] as [String?] {
                let reply = try await world.get("/v1.1/users/self", token: token)
                #expect(reply.status == 401)
                #expect(reply.errorCode == 401)
                #expect(reply.errorMessage == "Please provide a valid authorization header")
            }
        }
    }

    @Test func theBearerSchemeIsAcceptedInEitherCase() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            let lower = try await world.get("/v1.1/users/self", headers: ["Authorization": "bearer \(token)"])
            #expect(lower.status == 200)
        }
    }

    @Test(arguments: StoreEngine.available) func anotherUsersDeviceIs403AndLeaksNothing(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let client = try await world.aliceClient()
            try await world.store.post(NewMessage(sdid: world.bobScale.id, data: ["weight": .number(88.8)]), userID: world.bob.id)
            let token = try await world.token()

            let last = try await world.get("/v1.1/messages/last?sdids=\(world.bobScale.id)&count=5", token: token)
            #expect(last.status == 403)
            #expect(last.errorCode == 403)
            #expect(!last.text.contains("88.8"))

            let devices = try await world.get("/v1.1/users/\(world.bob.id)/devices", token: token)
            #expect(devices.status == 403)
            #expect(!devices.text.contains("Bob"))

            let post = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(world.bobScale.id)","data":{"weight":60}}"#)
            #expect(post.status == 403)
            #expect(try await world.store.lastMessages(deviceID: world.bobScale.id, userID: world.bob.id, count: 10).count == 1)

            await #expect(throws: HealthError.notYourDevice(world.bobScale.id)) {
                try await client.lastMessages(device: world.bobScale.id, count: 5, field: nil)
            }
        }
    }

    @Test func aBodyOver10KBIs413() async throws {
        try await ServerWorld.run { world in
            let comment = String(repeating: "x", count: 11 * 1024)
            let reply = try await world.post("/v1.1/messages", token: try await world.token(),
                                             json: #"{"sdid":"\#(world.aliceScale.id)","data":{"comments":"\#(comment)"}}"#)
            #expect(reply.status == 413)
            #expect(reply.errorCode == 413)
            #expect(reply.errorMessage == "Payload too large")
        }
    }

    @Test func malformedJSONIs400NamingTheProblem() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            let broken = try await world.post("/v1.1/messages", token: token, json: #"{"sdid": "abc", "data": {"weight": 72.4"#)
            #expect(broken.status == 400)
            #expect(broken.errorCode == 4001)
            #expect(broken.text.contains(#""field":"body""#))

            let wrongType = try await world.post("/v1.1/messages", token: token,
                                                 json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":[1,2]}}"#)
            #expect(wrongType.status == 400)
            let errors = try #require((try wrongType.json["error"] as? [String: Any])?["errors"] as? [[[String: Any]]])
            #expect(errors.first?.first?["field"] as? String == "data.weight")

            let missing = try await world.post("/v1.1/messages", token: token, json: #"{"data":{"weight":72}}"#)
            #expect(missing.status == 400)
            #expect(missing.text.contains(#""field":"sdid""#))

            let outOfRange = try await world.post("/v1.1/messages", token: token,
                                                  json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":7000}}"#)
            #expect(outOfRange.status == 400)
            #expect(outOfRange.errorCode == 4001)
        }
    }

    @Test(arguments: StoreEngine.available) func aBadQueryParameterIs400NamingIt(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let reply = try await world.get("/v1.1/messages/last?sdids=\(world.aliceScale.id)&count=101", token: try await world.token())
            #expect(reply.status == 400)
            #expect(reply.text.contains(#""field":"count""#))
        }
    }

    @Test(arguments: StoreEngine.available) func unknownThingsAre404InTheEnvelope(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            let route = try await world.get("/v1.1/nothing-here", token: token)
            #expect(route.status == 404)
            #expect(route.errorCode == 404)
            let type = try await world.get("/v1.1/devicetypes/dtnope/manifests/latest/properties", token: token)
            #expect(type.status == 404)
            #expect(type.errorCode == 1101)
            #expect(type.errorMessage == "Device type does not exist.")
        }
    }

    @Test func anExpiredTokenIsRefreshedOnce() async throws {
        try await ServerWorld.run { world in
            let client = try await world.aliceClient(flow: .authorizationCode)
            let before = try #require(await client.currentSession())
            world.clock.advance(by: 3601)
            #expect(try await world.get("/v1.1/users/self", token: before.token).status == 401)

            // The client notices the expiry (its clock moved too) and refreshes before calling.
            #expect(try await client.currentUser().id == world.alice.id)
            let after = try #require(await client.currentSession())
            #expect(after.token != before.token)
            #expect(after.refreshToken != before.refreshToken)
        }
    }

    @Test func a401FromTheServerIsCuredByARefresh() async throws {
        try await ServerWorld.run { world in
            // The client's own clock does not move: it learns of the expiry from the server's 401.
            let client = RemoteHealthService(server: world.url, options: .init(flow: .authorizationCode, timeout: TestServerLimits.clientTimeout))
            _ = try await client.signIn(name: "alice", password: ServerWorld.password)
            world.clock.advance(by: 3601)
            #expect(try await client.devices().count == 1)
        }
    }

    @Test func aRevokedTokenIs401() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            let revoke = try await RawHTTP.send("PUT", world.url.absoluteString + "/revokeAccessToken?token=\(token)", token: token)
            #expect(revoke.status == 200)
            #expect(revoke.text == #"{"data":{"message":"Token successfully revoked"}}"#)
            let after = try await world.get("/v1.1/users/self", token: token)
            #expect(after.status == 401)
            #expect(after.errorCode == 401)
        }
    }

    @Test func aTokenRevokedByAnotherProcessIsRefusedAtTheNextRequest() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            #expect(try await world.get("/v1.1/users/self", token: token).status == 200)  // now in the server's cache
            // Another hmon on the same file (its own connections, as `hmon user password` would have).
            let other = try LocalStore(url: world.sqlite.url, passwordHasher: .fastForTests)
            #expect(try await other.revokeToken(token))
            // The server looks at the store's version every 50 ms: the next requests are refused.
            #expect(try await Waiting.until { try await world.get("/v1.1/users/self", token: token).status == 401 })
        }
    }

    @Test func aSignedOutClientIsSentBackToSignIn() async throws {
        try await ServerWorld.run { world in
            let client = try await world.aliceClient(flow: .authorizationCode)
            let session = try #require(await client.currentSession())
            try await client.signOut()
            #expect(await client.currentSession() == nil)
            #expect(try await world.get("/v1.1/users/self", token: session.token).status == 401)
            // The refresh token was revoked with it: it cannot mint a new access token.
            let refresh = try await world.postForm("/token", [("grant_type", "refresh_token"), ("client_id", "hmon"),
                                                              ("refresh_token", try #require(session.refreshToken))])
            #expect(refresh.status == 400)
            #expect(try refresh.json["error"] as? String == "invalid_grant")
            // Resuming the revoked session is an expired session, not a crash.
            let other = world.client(flow: .implicit)
            await #expect(throws: HealthError.sessionExpired) { try await other.resume(session) }
        }
    }

    @Test func pastTheRateLimitRequestsGet429WithHeaders() async throws {
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 3, perDay: 10)) { world in
            let token = try await world.rawToken()
            var replies: [Reply] = []
            for _ in 0..<4 { replies.append(try await world.get("/v1.1/users/self", token: token)) }
            #expect(replies.prefix(3).allSatisfy { $0.status == 200 })
            #expect(replies[0].header("X-Rate-Limit-Limit") == "3/10")
            #expect(replies[0].header("X-Rate-Limit-Remaining") == "2/9")
            let limited = replies[3]
            #expect(limited.status == 429)
            #expect(limited.errorCode == 429)
            #expect(limited.errorMessage == "rate limit exceeded")
            #expect(limited.header("X-Rate-Limit-Remaining") == "0/7")
            let resets = try #require(limited.header("X-Rate-Limit-Reset")).split(separator: "/").compactMap { Int64($0) }
            let now = Int64(world.clock.now.timeIntervalSince1970)
            #expect(resets.count == 2)
            #expect(resets[0] > now && resets[0] <= now + 60)
            #expect(resets[1] > now && resets[1] <= now + 86_400)

            // Another token has its own allowance.
            let other = try await world.rawToken(for: "bob")
            #expect(try await world.get("/v1.1/users/self", token: other).status == 200)
        }
    }
}
