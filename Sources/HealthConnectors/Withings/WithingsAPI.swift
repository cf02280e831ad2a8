import Foundation
import HealthCore
import HealthModel

/// Where Withings is: its API (`wbsapi.withings.net`) and its account pages (`account.withings.com`).
/// The only thing that differs between the real service and the tests' fixture server.
public struct WithingsEndpoints: Sendable, Equatable {
    public var api: URL
    public var account: URL

    public static let real = WithingsEndpoints(api: URL(string: "https://wbsapi.withings.net")!,
                                                account: URL(string: "https://account.withings.com")!)

    public init(api: URL, account: URL) {
        self.api = api
        self.account = account
    }

    /// The page the person opens to let hmon read their measures (`scope=user.metrics`).
    public func authorizeURL(clientID: String, redirectURI: String, state: String) -> URL {
        var parts = URLComponents(url: account.appendingPathComponent("oauth2_user/authorize2"), resolvingAgainstBaseURL: false)!
        parts.queryItems = [URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
                            URLQueryItem(name: "scope", value: "user.metrics"), URLQueryItem(name: "redirect_uri", value: redirectURI),
                            URLQueryItem(name: "state", value: state)]
        return parts.url!
    }
}

/// A refusal from Withings: a non-zero `status` (even with HTTP 200), or an HTTP error. Never holds a token.
public struct WithingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var action: String
    public var status: Int
    public var message: String

    /// Withings' statuses for a token that is invalid or expired (401) and for a refused authorization.
    public var isInvalidToken: Bool { status == 401 }

    public var description: String {
        "Withings refused \(action) (status \(status)\(message.isEmpty ? "" : ": \(message)"))"
    }
}

/// The tokens of a Withings authorization. Withings rotates the refresh token on every refresh: the one
/// from the last answer is the only one that works.
public struct WithingsTokens: Codable, Sendable, Equatable {
    public var userid: String
    public var accessToken: String
    public var refreshToken: String
    /// When the access token stops working (3 hours after it was issued).
    public var expiresAt: Date

    public init(userid: String, accessToken: String, refreshToken: String, expiresAt: Date) {
        self.userid = userid
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

extension WithingsEndpoints: PulledEndpoints {
    public static var pagesName: String { "account" }
    public var pages: URL { account }
    public init(api: URL, pages: URL) { self.init(api: api, account: pages) }
}

/// Withings' public API, the four calls hmon makes: trade a code for tokens, refresh them, read measure
/// groups, subscribe to notifications.
public struct WithingsAPI: Sendable {
    public var endpoints: WithingsEndpoints
    public var transport: any PulledTransport

    public init(endpoints: WithingsEndpoints, transport: any PulledTransport) {
        self.endpoints = endpoints
        self.transport = transport
    }

    /// `action=requesttoken`, `grant_type=authorization_code`.
    public func requestToken(code: String, clientID: String, clientSecret: String, redirectURI: String, now: Date) async throws -> WithingsTokens {
        try await tokens(["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI],
                         clientID: clientID, clientSecret: clientSecret, now: now)
    }

    /// `action=requesttoken`, `grant_type=refresh_token`: new tokens, the refresh token rotated.
    public func refresh(_ tokens: WithingsTokens, clientID: String, clientSecret: String, now: Date) async throws -> WithingsTokens {
        var fresh = try await self.tokens(["grant_type": "refresh_token", "refresh_token": tokens.refreshToken],
                                          clientID: clientID, clientSecret: clientSecret, now: now)
        if fresh.userid.isEmpty { fresh.userid = tokens.userid }
        return fresh
    }

    /// Every page of `action=getmeas` for the kept types of category 1 (real measures, not goals), updated
    /// since `lastUpdate` (seconds since 1970; 0 for all) or measured from `start` to `end`.
    public func measureGroups(accessToken: String, lastUpdate: Int64?, start: Int64? = nil, end: Int64? = nil)
        async throws -> (groups: [WithingsMeasureGroup], updateTime: Int64?) {
        var groups: [WithingsMeasureGroup] = []
        var offset: Int?
        var updateTime: Int64?
        // A page limit, so a server that always says `more` cannot keep hmon asking forever.
        for _ in 0..<1_000 {
            var form = [("action", "getmeas"), ("meastypes", WithingsWeighIns.measureTypes), ("category", "1")]
            if let start, let end {
                form += [("startdate", String(start)), ("enddate", String(end))]
            } else {
                form.append(("lastupdate", String(lastUpdate ?? 0)))
            }
            if let offset { form.append(("offset", String(offset))) }
            let body: WithingsMeasureBody = try await call("measure", action: "getmeas", form: form, bearer: accessToken)
            groups += body.measuregrps
            updateTime = body.updatetime ?? updateTime
            guard body.more == 1, let next = body.offset else { break }
            offset = next
        }
        return (groups, updateTime)
    }

    /// `action=subscribe`, `appli=1` (weight and body composition): Withings checks `callbackURL` with a
    /// HEAD request before it answers, then POSTs a notification there after each new weigh-in.
    public func subscribe(accessToken: String, callbackURL: String) async throws {
        let _: Empty = try await call("notify", action: "subscribe", form: [("action", "subscribe"), ("callbackurl", callbackURL), ("appli", "1")],
                                      bearer: accessToken)
    }

    private struct TokenBody: Decodable {
        var userid: FlexibleString?
        var access_token: String
        var refresh_token: String
        var expires_in: Int
    }

    /// Withings writes `userid` as a string in some answers and a number in others.
    private struct FlexibleString: Decodable {
        var text: String
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int64.self) { text = String(n) } else { text = try c.decode(String.self) }
        }
    }

    private struct Empty: Decodable {}

    private func tokens(_ grant: [String: String], clientID: String, clientSecret: String, now: Date) async throws -> WithingsTokens {
        var form = [("action", "requesttoken"), ("client_id", clientID), ("client_secret", clientSecret)]
        form += grant.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let body: TokenBody = try await call("v2/oauth2", action: "requesttoken", form: form, bearer: nil)
        return WithingsTokens(userid: body.userid?.text ?? "", accessToken: body.access_token, refreshToken: body.refresh_token,
                              expiresAt: now.addingTimeInterval(TimeInterval(body.expires_in)))
    }

    private struct Envelope<Body: Decodable>: Decodable {
        var status: Int
        var body: Body?
        var error: String?
    }

    private struct StatusOnly: Decodable {
        var status: Int
        var error: String?
    }

    /// Posts the form and reads Withings' envelope, `{"status": 0, "body": {…}}`: any other status is a
    /// `WithingsError`, whatever the HTTP status.
    private func call<Body: Decodable>(_ path: String, action: String, form: [(String, String)], bearer: String?) async throws -> Body {
        // Every call is a form POST with the bearer token, if any.
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let bearer { headers["Authorization"] = "Bearer " + bearer }
        let (http, data) = try await transport.send("POST", endpoints.api.appendingPathComponent(path), headers: headers,
                                                    body: FormEncoding.encode(form))
        let decoder = JSONDecoder()
        guard let head = try? decoder.decode(StatusOnly.self, from: data) else {
            throw WithingsError(action: action, status: http, message: "the answer (HTTP \(http)) is not Withings' JSON")
        }
        guard head.status == 0 else {
            let message = TextRules.replacingUnsafe(in: String((head.error ?? "").prefix(200))).0
            throw WithingsError(action: action, status: head.status, message: message)
        }
        if Body.self == Empty.self, let empty = Empty() as? Body { return empty }
        do {
            guard let body = try decoder.decode(Envelope<Body>.self, from: data).body else {
                throw WithingsError(action: action, status: head.status, message: "the answer has no body")
            }
            return body
        } catch let error as DecodingError {
            throw WithingsError(action: action, status: head.status, message: "the answer's body is not as documented (\(Self.place(error)))")
        }
    }

    private static func place(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key]).map(\.stringValue).joined(separator: ".") + " is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + " has the wrong type"
        @unknown default: "unreadable"
        }
    }
}
