import Foundation
import HealthCore
import SAMIContract
import HealthModel
import Hummingbird
import CheckedNumbers

/// The OAuth2 endpoints of the contract: `/authorize` (the sign-in form and its answer), `/token`,
/// `/logout` and `/revokeAccessToken`; and the same flows at Exist's own paths, `/oauth2/authorize` and
/// `/oauth2/access_token`, so a client written for exist.io changes only its base URL.
struct OAuthRoutes: Sendable {
    let store: any TokenStore
    let configuration: ServerConfiguration
    let tokenCache: TokenCache
    /// Checks the sign-in form's passwords; its throttle also counts failed client authentications per client id.
    let passwordSignIn: PasswordSignIn
    var throttle: SignInThrottle { passwordSignIn.throttle }
    /// Exist's refresh retries: the same answer again within a minute (`/oauth2/access_token` only).
    let refreshGrace: RefreshGrace
    var registry: ClientRegistry { ClientRegistry(store: store) }

    func add(to router: Router<ServerContext>) {
        router.get("/authorize") { request, _ in try await showForm(request) }
        router.post("/authorize") { request, context in try await signIn(request, from: context.remoteAddress) }
        router.post("/token") { request, _ in await token(request, dialect: .sami) }
        router.get("/oauth2/authorize") { request, _ in try await showForm(request) }
        router.post("/oauth2/authorize") { request, context in try await signIn(request, from: context.remoteAddress) }
        router.post("/oauth2/access_token") { request, _ in await token(request, dialect: .exist) }
        router.get("/logout") { request, _ in try await logout(request) }
        router.put("/revokeAccessToken") { request, _ in try await revoke(request) }
    }

    // MARK: /authorize

    /// The parameters `/authorize` checks before showing or answering the form.
    private struct AuthorizeRequest {
        var client: KnownClient
        var responseType: String
        var redirectURI: String
        var state: String?
        var scope: String
        /// The PKCE challenge (S256) to store with the code; nil when none was sent.
        var codeChallenge: String?

        /// The parameters the form carries back to `POST /authorize`, the PKCE challenge among them.
        var hiddenFields: [(String, String)] {
            [("client_id", client.id), ("response_type", responseType), ("redirect_uri", redirectURI),
             ("scope", scope)] + (state.map { [("state", $0)] } ?? [])
                + (codeChallenge.map { [("code_challenge", $0), ("code_challenge_method", PKCE.method)] } ?? [])
        }
    }

    private enum Checked {
        case success(AuthorizeRequest)
        case failure(Response)
    }

    /// Checks client, response type, redirect, scope and PKCE. A bad client or redirect is answered with a page,
    /// never a redirect: redirecting to an unchecked address would make this server an open redirector.
    private func authorizeRequest(_ p: [String: String]) async throws -> Checked {
        guard let clientID = p["client_id"], !clientID.isEmpty else {
            return .failure(page(.badRequest, "This sign-in link has no client_id: ask the app that sent you here to fix it."))
        }
        guard let client = try await registry.client(id: clientID) else {
            return .failure(page(.badRequest, "This sign-in link names an unknown client (\(clientID)): register it with `hmon client add`."))
        }
        guard let redirect = registry.redirect(for: client, requested: p["redirect_uri"]) else {
            if client.redirectURI == nil {
                return .failure(page(.badRequest, "This client has no redirect URI, so it cannot sign people in: register one with `hmon client add NAME --redirect-uri URI`."))
            }
            return .failure(page(.badRequest, "This sign-in link's redirect_uri is not the one registered for its client."))
        }
        let responseType = p["response_type"] ?? ""
        guard responseType == "token" || responseType == "code" else {
            return .failure(page(.badRequest, "This sign-in link's response_type must be token or code."))
        }
        guard let scope = Scope.normalized(p["scope"] ?? Scope.all) else {
            return .failure(page(.badRequest, "This sign-in link asks for an unknown scope: use read, write, read,write or Exist's group scopes such as health_read,food_write."))
        }
        let codeChallenge: String?
        switch CodeChallengeRules.decide(challenge: p["code_challenge"], method: p["code_challenge_method"],
                                         client: client, responseType: responseType) {
        case .refused(let reason): return .failure(page(.badRequest, reason))
        case .accepted(let challenge): codeChallenge = challenge
        }
        return .success(AuthorizeRequest(client: client, responseType: responseType, redirectURI: redirect,
                                         state: p["state"], scope: scope, codeChallenge: codeChallenge))
    }

    private func showForm(_ request: Request) async throws -> Response {
        switch try await authorizeRequest(try RequestInput.query(request)) {
        case .failure(let response): return response
        case .success(let auth): return html(.ok, SignInPage.render(parameters: auth.hiddenFields))
        }
    }

    private func signIn(_ request: Request, from address: String) async throws -> Response {
        let form = try await RequestInput.form(request)
        let auth: AuthorizeRequest
        switch try await authorizeRequest(form) {
        case .failure(let response): return response
        case .success(let checked): auth = checked
        }
        let name = form["username"] ?? ""
        let user: User
        switch try await passwordSignIn.check(name: name, password: form["password"] ?? "", from: address) {
        case .signedIn(let signedIn):
            user = signedIn
        case .throttled(let seconds):
            return html(.tooManyRequests, SignInPage.render(parameters: auth.hiddenFields, userName: name,
                                                            problem: "Too many failed sign-ins for this account: try again in \(Self.duration(seconds))."),
                        headers: [.retryAfter: "\(seconds)"])
        case .busy(let why):
            return html(.tooManyRequests, SignInPage.render(parameters: auth.hiddenFields, userName: name,
                                                            problem: "\(why): try again in a moment."),
                        headers: [.retryAfter: "1"])
        case .wrongPassword:
            return html(.unauthorized, SignInPage.render(parameters: auth.hiddenFields, userName: name,
                                                         problem: "Wrong user name or password."))
        }
        let now = configuration.clock()
        if auth.responseType == "token" {
            let (token, _) = try await store.createToken(kind: .access, userID: user.id, clientID: auth.client.id,
                                                         scope: auth.scope, redirectURI: nil, ttl: configuration.accessTokenLifetime,
                                                         family: nil, codeChallenge: nil, now: now)
            // `access_token` goes last: the ancestor app read the text after the URL's last "=".
            var fragment = [("expires_in", "\(Int(rounding: configuration.accessTokenLifetime))"), ("token_type", "bearer")]
            if let state = auth.state { fragment.append(("state", state)) }
            fragment.append(("access_token", token))
            return redirect(to: auth.redirectURI + "#" + encode(fragment))
        } else {
            // The code starts a family: the tokens issued from it, and from their refreshes, join it.
            let (code, _) = try await store.createToken(kind: .code, userID: user.id, clientID: auth.client.id,
                                                        scope: auth.scope, redirectURI: auth.redirectURI,
                                                        ttl: configuration.codeLifetime, family: Secrets.newID(),
                                                        codeChallenge: auth.codeChallenge, now: now)
            var query = [("code", code)]
            if let state = auth.state { query.append(("state", state)) }
            let separator = auth.redirectURI.contains("?") ? "&" : "?"
            return redirect(to: auth.redirectURI + separator + encode(query))
        }
    }

    // MARK: /token

    /// Whose token endpoint answers: SAMI's `/token` (an hour's access token, `"bearer"`) or Exist's
    /// `/oauth2/access_token` (Exist's year, `"Bearer"`, refresh retries within `RefreshGrace.window`).
    enum Dialect {
        case sami, exist
    }

    private func token(_ request: Request, dialect: Dialect) async -> Response {
        do {
            let form = try await RequestInput.form(request)
            // A client secret is the client's password: failures are throttled per client id, like sign-ins.
            guard let claimedID = claimedClientID(request, form) else { return tokenError(.unauthorizedClient) }
            // A NUL decoded from Basic credentials is the request's fault, as the same NUL in the form is; neither
            // engine is ever handed one (`StoreRules.checkNoNUL`).
            if let credentials = clientCredentials(request, form),
               credentials.id.utf8.contains(0) || credentials.secret?.utf8.contains(0) == true {
                return tokenError(.invalidRequest, description: "the client id or secret holds a NUL character (U+0000): remove it")
            }
            let claimed = "client:" + claimedID
            if case .wait(let seconds) = throttle.begin(claimed, now: configuration.clock()) {
                return tokenError(.unauthorizedClient, status: .tooManyRequests, retryAfter: seconds)
            }
            let client: KnownClient?
            do {
                client = try await authenticateClient(request, form)
            } catch {
                throttle.finish(claimed, succeeded: nil, now: configuration.clock())
                throw error
            }
            throttle.finish(claimed, succeeded: client != nil, now: configuration.clock())
            guard let client else { return tokenError(.unauthorizedClient) }
            let now = configuration.clock()
            switch form["grant_type"] {
            case "authorization_code":
                guard let code = form["code"], !code.isEmpty else { return tokenError(.invalidRequest) }
                let verifier = form["code_verifier"]
                if try await codeRefusedUnspent(code, client: client, verifier: verifier, now: now) { return tokenError(.invalidGrant) }
                // A code is single use; a second use revokes what the first one was exchanged for.
                guard case .redeemed(let record) = try await redeem(code, kind: .code, now: now),
                      record.clientID == client.id,
                      CodeChallengeRules.verifierFits(verifier, challenge: record.codeChallenge),
                      record.redirectURI == nil || form["redirect_uri"] == nil || record.redirectURI == form["redirect_uri"],
                      let userID = record.userID
                else { return tokenError(.invalidGrant) }
                return tokenResponse(try await grant(userID: userID, client: client, scope: record.scope ?? Scope.all,
                                                     family: record.family, dialect: dialect, now: now))
            case "refresh_token":
                guard let refresh = form["refresh_token"], !refresh.isEmpty else { return tokenError(.invalidRequest) }
                if dialect == .exist, let again = refreshGrace.answer(for: refresh, clientID: client.id, now: now) {
                    return tokenResponse(again)
                }
                if try await belongsToAnotherClient(refresh, kind: .refresh, client: client, now: now) { return tokenError(.invalidGrant) }
                // Refresh tokens rotate: the old one is spent by this exchange, and replaying it revokes the family.
                guard case .redeemed(let record) = try await redeem(refresh, kind: .refresh, now: now),
                      record.clientID == client.id, let userID = record.userID
                else { return tokenError(.invalidGrant) }
                // Exist: "a refresh invalidates the old pair"; the spent refresh token is gone already, and
                // the access tokens of the same sign-in go with it (the cache forgets them at once).
                if dialect == .exist, let family = record.family {
                    try await store.revokeTokens(family: family, kind: .access)
                    tokenCache.forgetAll()
                }
                let answer = try await grant(userID: userID, client: client, scope: record.scope ?? Scope.all,
                                             family: record.family, dialect: dialect, now: now)
                if dialect == .exist { refreshGrace.remember(answer, for: refresh, clientID: client.id, now: now) }
                return tokenResponse(answer)
            case "client_credentials":
                // Only a client registered for a user (`hmon client add NAME --user USER`) gets a token of its own.
                guard !client.isPublic, client.ownerID != nil else { return tokenError(.unauthorizedClient) }
                guard let scope = Scope.normalized(form["scope"] ?? Scope.write) else { return tokenError(.invalidRequest) }
                let (access, _) = try await store.createToken(kind: .access, userID: nil, clientID: client.id, scope: scope,
                                                              redirectURI: nil, ttl: configuration.accessTokenLifetime, family: nil,
                                                              codeChallenge: nil, now: now)
                return tokenResponse(SAMI.TokenResponse(accessToken: access, expiresIn: Int(rounding: configuration.accessTokenLifetime),
                                                        refreshToken: nil, scope: scope))
            case nil, "":
                return tokenError(.invalidRequest)
            default:
                return tokenError(.unsupportedGrantType)
            }
        } catch let error as APIError where error.status == .contentTooLarge || error.status == .badRequest {
            // A body too large, or a field holding a NUL (`RequestInput.formFields`): the request, not the server.
            let problem = (error.envelope.error.errors ?? []).flatMap { $0 }.first.map { "\($0.field) \($0.messages.joined(separator: ", "))" }
            return tokenError(.invalidRequest, description: problem)
        } catch HealthError.storeBusy {
            return tokenError(.serverError, status: .serviceUnavailable, retryAfter: ServerLimits.busyRetryAfterSeconds)
        } catch HealthError.storeUnreachable {
            return tokenError(.serverError, status: .serviceUnavailable, retryAfter: ServerLimits.unreachableRetryAfterSeconds)
        } catch HealthError.invalidValue(let why) {
            return tokenError(.invalidRequest, description: why)
        } catch {
            return tokenError(.serverError)
        }
    }

    /// Redeems a code or refresh token; after a replay, forgets the cached access tokens so the family's
    /// revocation holds from this very request on.
    private func redeem(_ token: String, kind: TokenKind, now: Date) async throws -> Redemption {
        let redemption = try await store.redeemToken(token, kind: kind, now: now)
        if case .replayed = redemption { tokenCache.forgetAll() }
        return redemption
    }

    /// An access token and a refresh token for a user, in the family of the code or refresh token they
    /// were exchanged for (a new family when that one had none: tokens issued before families existed).
    /// Exist's tokens live as long as Exist's (`existAccessTokenLifetime`), and their refresh tokens at
    /// least as long, as a script that never refreshes expects.
    private func grant(userID: String, client: KnownClient, scope: String, family: String?, dialect: Dialect,
                       now: Date) async throws -> SAMI.TokenResponse {
        let family = family ?? Secrets.newID()
        let lifetime = dialect == .exist ? configuration.existAccessTokenLifetime : configuration.accessTokenLifetime
        let refreshLifetime = dialect == .exist ? configuration.refreshTokenLifetime.map { max($0, lifetime) }
                                                : configuration.refreshTokenLifetime
        let (access, _) = try await store.createToken(kind: .access, userID: userID, clientID: client.id, scope: scope,
                                                      redirectURI: nil, ttl: lifetime, family: family,
                                                      codeChallenge: nil, now: now)
        let (refresh, _) = try await store.createToken(kind: .refresh, userID: userID, clientID: client.id, scope: scope,
                                                       redirectURI: nil, ttl: refreshLifetime, family: family,
                                                       codeChallenge: nil, now: now)
        var answer = SAMI.TokenResponse(accessToken: access, expiresIn: Int(rounding: lifetime), refreshToken: refresh, scope: scope)
        // Exist writes the type capitalised and the scopes apart with spaces (RFC 6749 §3.3); OAuth
        // libraries compare both with what they asked for.
        if dialect == .exist {
            answer.tokenType = "Bearer"
            answer.scope = scope.split(separator: ",").joined(separator: " ")
        }
        return answer
    }

    /// Client authentication by `Authorization: Basic base64(id:secret)` or `client_id`/`client_secret` in the body.
    private func authenticateClient(_ request: Request, _ form: [String: String]) async throws -> KnownClient? {
        guard let (id, secret) = clientCredentials(request, form) else { return nil }
        return try await registry.authenticate(id: id, secret: secret)
    }

    /// The client id a `/token` request claims, checked or not: the key of its failure count.
    private func claimedClientID(_ request: Request, _ form: [String: String]) -> String? {
        clientCredentials(request, form)?.id
    }

    private func clientCredentials(_ request: Request, _ form: [String: String]) -> (id: String, secret: String?)? {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("basic ") {
            guard let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                  let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else { return nil }
            let id = String(pair[..<colon]).removingPercentEncoding ?? String(pair[..<colon])
            let secret = String(pair[pair.index(after: colon)...]).removingPercentEncoding ?? String(pair[pair.index(after: colon)...])
            return (id, secret)
        }
        guard let id = form["client_id"], !id.isEmpty else { return nil }
        return (id, form["client_secret"])
    }

    private static let noStore: HTTPFields = [.cacheControl: "no-store", .init("Pragma")!: "no-cache"]

    private func tokenResponse(_ body: SAMI.TokenResponse) -> Response {
        JSONBody.response(body, headers: Self.noStore)
    }

    private func tokenError(_ code: SAMI.OAuthError.Code, status: HTTPResponse.Status? = nil, retryAfter: Int? = nil,
                            description: String? = nil) -> Response {
        var headers = Self.noStore
        if let retryAfter { headers[.retryAfter] = "\(max(1, retryAfter))" }
        return JSONBody.response(SAMI.OAuthError(code, description: description), status: status ?? (code == .serverError ? .internalServerError : .badRequest),
                                 headers: headers)
    }

    // MARK: /logout and /revokeAccessToken

    /// Revokes the bearer token if one comes along, then redirects to the client's address with `status=logout`.
    private func logout(_ request: Request) async throws -> Response {
        if let token = AuthenticationMiddleware.bearerToken(request) {
            tokenCache.forget(token: token)
            try await store.revokeToken(token)
        }
        let query = try RequestInput.query(request)
        guard let target = query["redirect_uri"], !target.isEmpty else {
            return html(.ok, Self.signedOutPage)
        }
        // Only to an address a client registered (or hmon's own): never an open redirector.
        let client = try await registry.client(id: query["client_id"] ?? ClientRegistry.builtIn.id)
        guard let client, client.redirectURI == target else {
            return page(.badRequest, "This sign-out link's redirect_uri is not registered for its client.")
        }
        var params = [("status", "logout")]
        if let state = query["state"] { params.append(("state", state)) }
        return redirect(to: target + (target.contains("?") ? "&" : "?") + encode(params))
    }

    /// `PUT /revokeAccessToken?token=…` (or the bearer token itself when no `token` is given).
    private func revoke(_ request: Request) async throws -> Response {
        guard let token = try RequestInput.query(request)["token"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? AuthenticationMiddleware.bearerToken(request)
        else { throw APIError.validation("token", "is required") }
        tokenCache.forget(token: token)
        let revoked = try await store.revokeToken(token)
        // A personal token lives in a table of its own and is revoked where it was made; saying "revoked"
        // while it works on would be a lie.
        if !revoked, try await store.personalToken(token) != nil {
            throw APIError.validation("token", "is a personal token: revoke it with `hmon token revoke ID` where the store is")
        }
        return JSONBody.response(SAMI.DataEnvelope(data: SAMI.Notice(message: "Token successfully revoked")))
    }

    /// Whether a live code is refused before it is spent: another client's, or its PKCE
    /// verifier missing, wrong, or sent for a code asked for without a challenge.
    ///
    /// Refusing spends nothing, so the legitimate exchange still works. RFC 7636 §4.6 and OAuth 2.1 §4.1.3
    /// ask for `invalid_grant` and leave the code's fate open; spending it would let whoever intercepted a
    /// code, without the verifier that PKCE keeps on the client, deny its owner the sign-in in one request,
    /// and gains nothing: a verifier made as §4.1 recommends carries 256 random bits, and the code lives 60 s.
    /// A code already spent is not looked at here: presenting it again is a replay, and revokes its family.
    private func codeRefusedUnspent(_ code: String, client: KnownClient, verifier: String?, now: Date) async throws -> Bool {
        guard let record = try await store.token(code, kind: .code, now: now) else { return false }
        return record.clientID != client.id || !CodeChallengeRules.verifierFits(verifier, challenge: record.codeChallenge)
    }

    /// Whether `token` is a live one of another client than `client`: then it is refused without being spent.
    private func belongsToAnotherClient(_ token: String, kind: TokenKind, client: KnownClient, now: Date) async throws -> Bool {
        guard let record = try await store.token(token, kind: kind, now: now) else { return false }
        return record.clientID != client.id
    }

    // MARK: Answers

    private func encode(_ pairs: [(String, String)]) -> String {
        String(decoding: FormEncoding.encode(pairs), as: UTF8.self)
    }

    private func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    private func html(_ status: HTTPResponse.Status, _ text: String, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                   .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// "3 seconds", "1 minute", "15 minutes": for the page that says how long to wait.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    private func page(_ status: HTTPResponse.Status, _ message: String) -> Response {
        html(status, """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>hmon</title></head>
            <body><h1>hmon</h1><p>\(SignInPage.escape(message))</p></body></html>
            """)
    }

    private static let signedOutPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>hmon</title></head>
        <body><h1>hmon</h1><p>You are signed out.</p></body></html>
        """
}
