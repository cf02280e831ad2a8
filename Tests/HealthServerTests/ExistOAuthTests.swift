import Foundation
import HealthCore
import SAMIContract
import HealthModel
@testable import HealthServer
import TestSupport
import Testing

/// Issue 26: a client written for exist.io signs in against `hmon serve` with only its base URL changed.
/// Each request below is the one Exist's documentation shows (`docs/reference/authentication/oauth2.md`
/// in hellocodeco/exist-api-docs): `/oauth2/authorize` with `scope=scope1+scope2`, then
/// `POST /oauth2/access_token` with the code, the client's id and secret and the redirect URI, answered
/// `{"access_token","token_type":"Bearer","expires_in","refresh_token","scope"}` with Exist's year.
@Suite struct ExistOAuthTests {
    static let redirect = "https://sync.example/exist/callback"

    /// A confidential client, registered as an Exist app would be, and a code for alice from Exist's paths.
    static func signedIn(_ world: ServerWorld) async throws -> (client: String, secret: String, code: String) {
        let (client, secret) = try await world.store.createClient(name: "Exist sync", redirectURI: redirect)
        // The authorisation page, as the browser opens it: the scopes joined by '+' as Exist's docs write them.
        let page = try await world.get("/oauth2/authorize?response_type=code&client_id=\(client.id)"
                                       + "&redirect_uri=\(redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                                       + "&scope=health_read+health_write")
        #expect(page.status == 200, "\(page.text)")
        #expect(page.text.contains("health_read,health_write"), "the form carries the two scopes: \(page.text)")
        let answer = try await world.postForm("/oauth2/authorize", [
            ("client_id", client.id), ("response_type", "code"), ("redirect_uri", redirect),
            ("scope", "health_read health_write"), ("username", "alice"), ("password", ServerWorld.password),
        ])
        #expect(answer.status == 302, "\(answer.text)")
        let location = try #require(answer.header("Location").flatMap(URLComponents.init(string:)))
        #expect(location.host == "sync.example")
        let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)
        return (client.id, secret, code)
    }

    static func accessToken(_ world: ServerWorld, _ fields: [(String, String)]) async throws -> Reply {
        try await world.postForm("/oauth2/access_token", fields)
    }

    @Test(arguments: StoreEngine.available) func anExistClientSignsInAtExistsPathsAndGetsAYearsToken(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (client, secret, code) = try await Self.signedIn(world)
            let reply = try await Self.accessToken(world, [("grant_type", "authorization_code"), ("code", code), ("client_id", client),
                                                           ("client_secret", secret), ("redirect_uri", Self.redirect)])
            #expect(reply.status == 200, "\(reply.text)")
            let json = try reply.json
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["expires_in"] as? Int == 365 * 24 * 3600, "Exist's tokens live a year")
            // Space-separated, as Exist's example and RFC 6749 §3.3 write it: requests-oauthlib refuses a
            // sign-in whose scope string differs from what it asked for.
            let scopes = try #require(json["scope"] as? String)
            #expect(scopes.contains("health_read") && !scopes.contains(","), "\(json)")
            let access = try #require(json["access_token"] as? String)
            #expect(json["refresh_token"] is String)
            let profile = try await world.get("/api/2/accounts/profile/", token: access)
            #expect(profile.status == 200, "\(profile.text)")
            #expect(try profile.json["username"] as? String == "alice")
            // Still alive after eleven months, where SAMI's hour-long token would be long gone.
            world.clock.advance(by: 330 * 24 * 3600)
            #expect(try await world.get("/api/2/accounts/profile/", token: access).status == 200)
        }
    }

    @Test(arguments: StoreEngine.available) func aRefreshRetriedWithinAMinuteGetsTheSamePairAndLaterIsAReplay(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (client, secret, code) = try await Self.signedIn(world)
            let first = try await Self.accessToken(world, [("grant_type", "authorization_code"), ("code", code), ("client_id", client),
                                                           ("client_secret", secret), ("redirect_uri", Self.redirect)]).json
            let refresh = try #require(first["refresh_token"] as? String)
            let refreshFields = [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client), ("client_secret", secret)]
            let rotated = try await Self.accessToken(world, refreshFields)
            #expect(rotated.status == 200, "\(rotated.text)")
            let newAccess = try #require(try rotated.json["access_token"] as? String)
            #expect(newAccess != first["access_token"] as? String)
            // Exist: a refresh invalidates the old pair, access token included.
            let oldAccess = try #require(first["access_token"] as? String)
            #expect(try await world.get("/api/2/accounts/profile/", token: oldAccess).status == 401)

            // The script timed out and sends the same refresh again: the same new pair, and nothing revoked.
            world.clock.advance(by: 20)
            let retried = try await Self.accessToken(world, refreshFields)
            #expect(retried.status == 200, "\(retried.text)")
            #expect(try retried.json["access_token"] as? String == newAccess)
            #expect(try retried.json["refresh_token"] as? String == rotated.json["refresh_token"] as? String)
            #expect(try await world.get("/api/2/accounts/profile/", token: newAccess).status == 200)

            // Past the window, the spent refresh token is a replay: refused, and the sign-in revoked.
            world.clock.advance(by: RefreshGrace.window + 1)
            let replay = try await Self.accessToken(world, refreshFields)
            #expect(replay.status == 400)
            #expect(try replay.json["error"] as? String == "invalid_grant")
            #expect(try await world.get("/api/2/accounts/profile/", token: newAccess).status == 401)
        }
    }

    @Test func errorsOnExistsRoutesAreExistsDetailAndAPagePastTheEndIs404() async throws {
        try await ServerWorld.run { world in
            let unauthorised = try await world.get("/api/2/attributes/")
            #expect(unauthorised.status == 401)
            #expect(try unauthorised.json["detail"] is String, "\(unauthorised.text)")
            #expect(try unauthorised.json.keys.sorted() == ["detail"], "no SAMI envelope on Exist's routes")

            let token = try await world.token(for: "alice")
            let first = try await world.get("/api/2/attributes/?limit=100", token: token)
            #expect(first.status == 200)
            let count = try #require(try first.json["count"] as? Int)
            let past = try await world.get("/api/2/attributes/?limit=100&page=\(count / 100 + 2)", token: token)
            #expect(past.status == 404, "\(past.text)")
            #expect(try past.json["detail"] as? String == "Invalid page.")

            // SAMI's routes keep SAMI's envelope.
            let sami = try await world.get("/v1.1/users/self")
            #expect(sami.status == 401)
            let envelope = try sami.json["error"] as? [String: Any]
            #expect(envelope?["message"] is String, "\(sami.text)")
        }
    }
}
