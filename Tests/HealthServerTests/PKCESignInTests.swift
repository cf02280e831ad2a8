import Foundation
import HealthCore
import SAMIContract
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 29, case 9: PKCE (RFC 7636, S256). hmon's own client has no secret, so a code intercepted on its
/// way back could be exchanged by anyone; it must now ask for the code with a challenge, and only the
/// verifier the challenge was made from exchanges it. Registered clients may use PKCE too.
@Suite struct PKCESignInTests {
    /// RFC 7636, Appendix B: the example verifier and its S256 challenge.
    static let rfcVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let rfcChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static let redirect = "hmon://signed-in"

    /// `POST /authorize` for alice with the right password, as the sign-in form sends it.
    static func signIn(_ world: ServerWorld, _ fields: [(String, String)]) async throws -> Reply {
        try await world.postForm("/authorize", fields + [("username", "alice"), ("password", ServerWorld.password)])
    }

    /// The code in a sign-in's redirect.
    static func code(in reply: Reply) throws -> String {
        #expect(reply.status == 302, "\(reply.text)")
        let location = try #require(reply.header("Location").flatMap(URLComponents.init(string:)))
        return try #require(location.queryItems?.first { $0.name == "code" }?.value)
    }

    /// A code for hmon's own client, asked for with `challenge`.
    static func hmonCode(_ world: ServerWorld, challenge: String) async throws -> String {
        try code(in: try await signIn(world, [("client_id", "hmon"), ("response_type", "code"), ("redirect_uri", redirect),
                                              ("code_challenge", challenge), ("code_challenge_method", "S256")]))
    }

    static func exchange(_ world: ServerWorld, code: String, verifier: String?, client: [(String, String)] = [("client_id", "hmon")],
                         headers: [String: String] = [:]) async throws -> (status: Int, access: String?, error: String?) {
        let fields = client + [("grant_type", "authorization_code"), ("code", code)] + (verifier.map { [("code_verifier", $0)] } ?? [])
        let reply = try await world.postForm("/token", fields, headers: headers)
        let json = try reply.json
        return (reply.status, json["access_token"] as? String, json["error"] as? String)
    }

    @Test(arguments: StoreEngine.available) func hmonsOwnClientAskingForACodeWithoutAChallengeIsRefused(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let form = try await world.get("/authorize?client_id=hmon&response_type=code&redirect_uri=hmon%3A%2F%2Fsigned-in")
            #expect(form.status == 400)
            #expect(form.text.contains("must carry a PKCE challenge"))
            #expect(!form.text.contains(#"name="password""#), "no sign-in form")

            let answer = try await Self.signIn(world, [("client_id", "hmon"), ("response_type", "code"), ("redirect_uri", Self.redirect)])
            #expect(answer.status == 400)
            #expect(answer.header("Location") == nil, "no code")
            // The token flow has no code, and stays as the ancestor app used it.
            #expect(try await Self.signIn(world, [("client_id", "hmon"), ("response_type", "token"), ("redirect_uri", Self.redirect)]).status == 302)
        }
    }

    @Test(arguments: StoreEngine.available) func onlyTheRightVerifierExchangesTheCodeAndAWrongOneSpendsNothing(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let verifier = PKCE.newVerifier()
            let code = try await Self.hmonCode(world, challenge: PKCE.challenge(for: verifier))

            let missing = try await Self.exchange(world, code: code, verifier: nil)
            #expect(missing.status == 400 && missing.error == "invalid_grant" && missing.access == nil)
            let wrong = try await Self.exchange(world, code: code, verifier: PKCE.newVerifier())
            #expect(wrong.status == 400 && wrong.error == "invalid_grant" && wrong.access == nil)
            let malformed = try await Self.exchange(world, code: code, verifier: "short")
            #expect(malformed.error == "invalid_grant" && malformed.access == nil)

            // The refusals above did not spend the code: its owner, holding the verifier, still gets tokens.
            let right = try await Self.exchange(world, code: code, verifier: verifier)
            #expect(right.status == 200)
            let access = try #require(right.access)
            #expect(try await world.get("/v1.1/users/self", token: access).status == 200)
            #expect(try await Self.exchange(world, code: code, verifier: verifier).error == "invalid_grant", "still single use")
        }
    }

    /// The server's S256 against the RFC's own numbers, not against the helper the client uses as well.
    @Test(arguments: StoreEngine.available) func theRFCsExampleVerifierExchangesACodeAskedForWithItsChallenge(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let code = try await Self.hmonCode(world, challenge: Self.rfcChallenge)
            #expect(try await Self.exchange(world, code: code, verifier: Self.rfcChallenge).error == "invalid_grant",
                    "the challenge itself (plain) is no verifier")
            #expect(try await Self.exchange(world, code: code, verifier: Self.rfcVerifier).status == 200)
        }
    }

    @Test(arguments: StoreEngine.available) func plainAndMalformedChallengesAreRefusedWithAPage(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let good = Self.rfcChallenge
            let refused: [(query: String, says: String)] = [
                ("response_type=code&code_challenge=\(good)&code_challenge_method=plain", "must be S256"),
                ("response_type=code&code_challenge=\(good)", "must be S256"),
                ("response_type=code&code_challenge=\(good)&code_challenge_method=s256", "must be S256"),
                ("response_type=code&code_challenge=\(good.dropLast())&code_challenge_method=S256", "43 to 128 characters"),
                ("response_type=code&code_challenge=\(String(repeating: "a", count: 129))&code_challenge_method=S256", "43 to 128 characters"),
                ("response_type=code&code_challenge=\(good.dropLast())%2B&code_challenge_method=S256", "43 to 128 characters"),
                ("response_type=code&code_challenge=\(good.dropLast())%3D&code_challenge_method=S256", "43 to 128 characters"),
                ("response_type=code&code_challenge_method=S256", "no code_challenge"),
                ("response_type=token&code_challenge=\(good)&code_challenge_method=S256", "only response_type=code uses"),
            ]
            for (query, says) in refused {
                let reply = try await world.get("/authorize?client_id=hmon&redirect_uri=hmon%3A%2F%2Fsigned-in&\(query)")
                #expect(reply.status == 400, "\(query)")
                #expect(reply.text.contains(says), "\(query): \(reply.text)")
            }
            // Posting the form with the right password does not get round the check.
            let plain = try await Self.signIn(world, [("client_id", "hmon"), ("response_type", "code"), ("redirect_uri", Self.redirect),
                                                      ("code_challenge", Self.rfcVerifier), ("code_challenge_method", "plain")])
            #expect(plain.status == 400)
            #expect(plain.header("Location") == nil)
        }
    }

    /// The form `GET /authorize` shows carries the challenge back to `POST /authorize` in hidden fields.
    @Test(arguments: StoreEngine.available) func theChallengeSurvivesTheSignInForm(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let verifier = PKCE.newVerifier()
            let form = try await world.get("/authorize?client_id=hmon&response_type=code&redirect_uri=hmon%3A%2F%2Fsigned-in&state=s1"
                                           + "&code_challenge=\(PKCE.challenge(for: verifier))&code_challenge_method=S256")
            #expect(form.status == 200)
            let hidden = Self.hiddenFields(form.text)
            #expect(hidden.contains { $0 == ("code_challenge", PKCE.challenge(for: verifier)) })
            #expect(hidden.contains { $0 == ("code_challenge_method", "S256") })

            let code = try Self.code(in: try await Self.signIn(world, hidden))
            #expect(try await Self.exchange(world, code: code, verifier: nil).error == "invalid_grant", "stored with the code")
            #expect(try await Self.exchange(world, code: code, verifier: verifier).status == 200)
        }
    }

    @Test(arguments: StoreEngine.available) func aRegisteredClientWithoutPKCEWorksAsBeforeAndMayNotSendAVerifier(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (client, secret) = try await world.store.createClient(name: "Widget", redirectURI: "https://widget.example/cb")
            let code = try Self.code(in: try await Self.signIn(world, [("client_id", client.id), ("response_type", "code"),
                                                                       ("redirect_uri", "https://widget.example/cb")]))
            let credentials = [("client_id", client.id), ("client_secret", secret)]
            // OAuth 2.1 §4.1.3: a verifier for a code asked for without a challenge is refused (a PKCE downgrade)…
            let downgraded = try await Self.exchange(world, code: code, verifier: Self.rfcVerifier, client: credentials)
            #expect(downgraded.error == "invalid_grant" && downgraded.access == nil)
            // …and, refused, spends nothing.
            let exchanged = try await Self.exchange(world, code: code, verifier: nil, client: credentials)
            #expect(exchanged.status == 200 && exchanged.access != nil)
        }
    }

    @Test(arguments: StoreEngine.available) func aRegisteredClientThatSendsAChallengeMustProveIt(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (client, secret) = try await world.store.createClient(name: "Widget", redirectURI: "https://widget.example/cb")
            let code = try Self.code(in: try await Self.signIn(world, [
                ("client_id", client.id), ("response_type", "code"), ("redirect_uri", "https://widget.example/cb"),
                ("code_challenge", Self.rfcChallenge), ("code_challenge_method", "S256"),
            ]))
            let basic = ["Authorization": "Basic " + Data("\(client.id):\(secret)".utf8).base64EncodedString()]
            #expect(try await Self.exchange(world, code: code, verifier: nil, client: [], headers: basic).error == "invalid_grant",
                    "its secret does not stand in for the verifier")
            #expect(try await Self.exchange(world, code: code, verifier: Self.rfcVerifier, client: [], headers: basic).status == 200)
        }
    }

    /// The hidden fields of a sign-in page, unescaped.
    static func hiddenFields(_ html: String) -> [(String, String)] {
        let pattern = #/<input type="hidden" name="([^"]*)" value="([^"]*)">/#
        return html.matches(of: pattern).map { (unescape(String($0.1)), unescape(String($0.2))) }
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
