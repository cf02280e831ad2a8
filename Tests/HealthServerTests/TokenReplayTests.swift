import Foundation
import HealthCore
import SAMIContract
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 16, item 8: a replayed authorization code or rotated refresh token is refused *and* revokes the
/// tokens issued from it (RFC 6749 §4.1.2; OAuth 2.0 Security BCP §4.14): whichever of the thief and the
/// owner comes second, the stolen grant stops working for both.
@Suite struct TokenReplayTests {
    /// The PKCE verifier every code here is asked for with (hmon's own client must use PKCE).
    static let verifier = PKCE.newVerifier()

    /// A code from `POST /authorize` for hmon's own client; exchange it with `verifier`.
    static func code(_ world: ServerWorld, for name: String = "alice") async throws -> String {
        let reply = try await world.postForm("/authorize", [
            ("client_id", "hmon"), ("response_type", "code"), ("redirect_uri", "hmon://signed-in"),
            ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", PKCE.method),
            ("username", name), ("password", ServerWorld.password),
        ])
        let location = try #require(reply.header("Location").flatMap(URLComponents.init(string:)))
        return try #require(location.queryItems?.first { $0.name == "code" }?.value)
    }

    static func exchange(_ world: ServerWorld, _ fields: [(String, String)]) async throws -> (status: Int, access: String?, refresh: String?, error: String?) {
        let reply = try await world.postForm("/token", [("client_id", "hmon")] + fields)
        let json = try reply.json
        return (reply.status, json["access_token"] as? String, json["refresh_token"] as? String, json["error"] as? String)
    }

    static func canRead(_ world: ServerWorld, _ token: String) async throws -> Bool {
        let reply = try await world.get("/v1.1/users/self", token: token)
        #expect(reply.status == 200 || reply.status == 401)
        return reply.status == 200
    }

    @Test(arguments: StoreEngine.available) func aReplayedCodeRevokesTheTokensItWasExchangedFor(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let code = try await Self.code(world)
            let first = try await Self.exchange(world, [("grant_type", "authorization_code"), ("code", code), ("code_verifier", Self.verifier)])
            let access = try #require(first.access)
            let refresh = try #require(first.refresh)
            #expect(try await Self.canRead(world, access))
            // A second sign-in of the same person, a grant of its own, must survive.
            let other = try #require(try await Self.exchange(world, [("grant_type", "authorization_code"), ("code", try await Self.code(world)),
                                                                       ("code_verifier", Self.verifier)]).access)

            let replay = try await Self.exchange(world, [("grant_type", "authorization_code"), ("code", code), ("code_verifier", Self.verifier)])
            #expect(replay.status == 400)
            #expect(replay.error == "invalid_grant")
            #expect(try await Self.canRead(world, access) == false)
            #expect(try await Self.exchange(world, [("grant_type", "refresh_token"), ("refresh_token", refresh)]).error == "invalid_grant")
            #expect(try await Self.canRead(world, other))
        }
    }

    /// Issue 29, case 9: a second client that presented another client's code spent it, so the legitimate
    /// exchange failed. A code (or refresh token) is now checked against its client before it is spent.
    @Test(arguments: StoreEngine.available) func anotherClientPresentingACodeSpendsNothing(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (intruder, secret) = try await world.store.createClient(name: "Intruder", redirectURI: "https://intruder.example/cb")
            let code = try await Self.code(world)
            let stolen = try await world.postForm("/token", [("client_id", intruder.id), ("client_secret", secret),
                                                             ("grant_type", "authorization_code"), ("code", code), ("code_verifier", Self.verifier)])
            #expect(stolen.status == 400, "\(stolen.text)")
            #expect(try stolen.json["error"] as? String == "invalid_grant")
            let legitimate = try await Self.exchange(world, [("grant_type", "authorization_code"), ("code", code), ("code_verifier", Self.verifier)])
            #expect(legitimate.status == 200, "the owner's exchange still works")
            let refresh = try #require(legitimate.refresh)
            let stolenRefresh = try await world.postForm("/token", [("client_id", intruder.id), ("client_secret", secret),
                                                                    ("grant_type", "refresh_token"), ("refresh_token", refresh)])
            #expect(try stolenRefresh.json["error"] as? String == "invalid_grant")
            #expect(try await Self.exchange(world, [("grant_type", "refresh_token"), ("refresh_token", refresh)]).status == 200)
        }
    }

    @Test(arguments: StoreEngine.available) func aReplayedRefreshTokenRevokesItsWholeFamily(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let code = try await Self.code(world)
            let first = try await Self.exchange(world, [("grant_type", "authorization_code"), ("code", code), ("code_verifier", Self.verifier)])
            let refresh1 = try #require(first.refresh)
            let second = try await Self.exchange(world, [("grant_type", "refresh_token"), ("refresh_token", refresh1)])
            let access2 = try #require(second.access)
            let refresh2 = try #require(second.refresh)
            #expect(try await Self.canRead(world, access2))

            // The first refresh token again: rotated, so this is a replay.
            let replay = try await Self.exchange(world, [("grant_type", "refresh_token"), ("refresh_token", refresh1)])
            #expect(replay.status == 400)
            #expect(replay.error == "invalid_grant")
            #expect(try await Self.canRead(world, access2) == false)
            #expect(try await Self.canRead(world, try #require(first.access)) == false)
            #expect(try await Self.exchange(world, [("grant_type", "refresh_token"), ("refresh_token", refresh2)]).error == "invalid_grant")
            // The code it all came from is spent too.
            #expect(try await Self.exchange(world, [("grant_type", "authorization_code"), ("code", code), ("code_verifier", Self.verifier)]).error == "invalid_grant")
        }
    }

    @Test(arguments: StoreEngine.available) func theStoreKeepsASpentCodeOnlyAsAReplayMarker(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (code, _) = try await world.store.createToken(kind: .code, userID: world.alice.id, clientID: "hmon", ttl: 60, family: "f1")
            let (access, _) = try await world.store.createToken(kind: .access, userID: world.alice.id, clientID: "hmon", ttl: 60, family: "f1")
            guard case .redeemed(let record) = try await world.store.redeemToken(code, kind: .code) else {
                Issue.record("a fresh code was not redeemed")
                return
            }
            #expect(record.family == "f1")
            // Spent: not a live token any more, and not redeemable again.
            #expect(try await world.store.token(code) == nil)
            #expect(try await world.store.redeemToken(code, kind: .code) == .replayed(revoked: 1))
            #expect(try await world.store.token(access) == nil)
            #expect(try await world.store.redeemToken(code, kind: .code) == .invalid)
            #expect(try await world.store.redeemToken("never issued", kind: .code) == .invalid)
        }
    }
}
