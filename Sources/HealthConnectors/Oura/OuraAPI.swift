import Foundation
import HealthCore
import HealthModel

/// Where Oura is: its API (`api.ouraring.com`: tokens, data, webhook subscriptions) and its cloud pages
/// (`cloud.ouraring.com`: the page the person allows hmon on). The only thing that differs between the
/// real service and the tests' fixture server.
public struct OuraEndpoints: Sendable, Equatable {
    public var api: URL
    public var cloud: URL

    public static let real = OuraEndpoints(api: URL(string: "https://api.ouraring.com")!, cloud: URL(string: "https://cloud.ouraring.com")!)

    public init(api: URL, cloud: URL) {
        self.api = api
        self.cloud = cloud
    }

    /// The page the person opens to let hmon read their ring's data (`scope=daily`: sleep and readiness).
    public func authorizeURL(clientID: String, redirectURI: String, state: String) -> URL {
        var parts = URLComponents(url: cloud.appendingPathComponent("oauth/authorize"), resolvingAgainstBaseURL: false)!
        parts.queryItems = [URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
                            URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "scope", value: "daily"),
                            URLQueryItem(name: "state", value: state)]
        return parts.url!
    }
}

/// A refusal from Oura (an HTTP status other than 2xx), or an answer hmon cannot read. Never holds a token.
extension OuraEndpoints: PulledEndpoints {
    public static var pagesName: String { "cloud" }
    public var pages: URL { cloud }
    public init(api: URL, pages: URL) { self.init(api: api, cloud: pages) }
}

public struct OuraError: Error, Sendable, Equatable, CustomStringConvertible {
    public var action: String
    public var status: Int
    public var message: String

    /// An access token Oura no longer takes (expired or revoked).
    public var isInvalidToken: Bool { status == 401 }

    /// A 2xx answer that cannot be read says so; any other status is Oura's refusal, in Oura's words.
    public var description: String {
        if (200..<300).contains(status) { return "Oura's answer for \(action) cannot be read (\(message))" }
        return "Oura refused \(action) (HTTP \(status)\(message.isEmpty ? "" : ": \(message)"))"
    }
}

/// The tokens of an Oura authorization. A refresh token works once: the one of the last answer is the
/// only one that works.
public struct OuraTokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresAt: Date

    public init(accessToken: String, refreshToken: String, expiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

/// One webhook subscription of the person's Oura app, as Oura answers it.
public struct OuraSubscription: Codable, Sendable, Equatable {
    public var id: String
    public var callbackURL: String
    public var eventType: String
    public var dataType: String
    public var expiresAt: Date

    public init(id: String, callbackURL: String, eventType: String, dataType: String, expiresAt: Date) {
        self.id = id
        self.callbackURL = callbackURL
        self.eventType = eventType
        self.dataType = dataType
        self.expiresAt = expiresAt
    }
}

/// Oura's API v2, the calls hmon makes: trade a code for tokens, refresh them, read sleep and daily readiness documents,
/// subscribe to and renew webhook subscriptions.
public struct OuraAPI: Sendable {
    public var endpoints: OuraEndpoints
    public var transport: any PulledTransport

    public init(endpoints: OuraEndpoints, transport: any PulledTransport) {
        self.endpoints = endpoints
        self.transport = transport
    }

    /// `POST /oauth/token`, `grant_type=authorization_code`.
    public func requestToken(code: String, clientID: String, clientSecret: String, redirectURI: String, now: Date) async throws -> OuraTokens {
        try await tokens([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)],
                         clientID: clientID, clientSecret: clientSecret, now: now)
    }

    /// `POST /oauth/token`, `grant_type=refresh_token`: new tokens, the refresh token replaced.
    public func refresh(_ tokens: OuraTokens, clientID: String, clientSecret: String, now: Date) async throws -> OuraTokens {
        try await self.tokens([("grant_type", "refresh_token"), ("refresh_token", tokens.refreshToken)],
                              clientID: clientID, clientSecret: clientSecret, now: now)
    }

    /// Every page of `GET /v2/usercollection/sleep` for the days `from` to `to` (Oura's `day`), following `next_token`.
    public func sleep(accessToken: String, from: Day, to: Day) async throws -> [OuraSleep] {
        try await collection("sleep", action: "the sleep documents", accessToken: accessToken, from: from, to: to)
    }

    /// Every page of `GET /v2/usercollection/daily_readiness` for the days `from` to `to`, following `next_token`.
    public func dailyReadiness(accessToken: String, from: Day, to: Day) async throws -> [OuraDailyReadiness] {
        try await collection("daily_readiness", action: "the daily readiness", accessToken: accessToken, from: from, to: to)
    }

    /// Every page of one of Oura's day-ranged collections, `GET /v2/usercollection/NAME?start_date=…&end_date=…`.
    private func collection<Document: Decodable>(_ name: String, action: String, accessToken: String, from: Day, to: Day) async throws -> [Document] {
        var documents: [Document] = []
        var next: String?
        // A page limit, so a server that always gives a next_token cannot keep hmon asking forever.
        for _ in 0..<1_000 {
            var query = [("start_date", from.description), ("end_date", to.description)]
            if let next { query.append(("next_token", next)) }
            let page: OuraPage<Document> = try await call("GET", "v2/usercollection/" + name, action: action, query: query,
                                                         headers: ["Authorization": "Bearer " + accessToken])
            documents += page.data
            guard let token = page.next_token, !token.isEmpty else { break }
            next = token
        }
        return documents
    }

    /// `POST /v2/webhook/subscription` with the app's own credentials: Oura first checks `callbackURL` (a GET
    /// with `verification_token` and `challenge`, answered with the challenge), then answers the subscription.
    public func subscribe(clientID: String, clientSecret: String, callbackURL: String, verificationToken: String,
                          eventType: String, dataType: String) async throws -> OuraSubscription {
        let body = try JSONSerialization.data(withJSONObject: ["callback_url": callbackURL, "verification_token": verificationToken,
                                                               "event_type": eventType, "data_type": dataType], options: [.sortedKeys])
        let answer: SubscriptionBody = try await call("POST", "v2/webhook/subscription", action: "the webhook subscription",
                                                      headers: appHeaders(clientID, clientSecret), body: body)
        return try answer.subscription(action: "the webhook subscription")
    }

    /// `PUT /v2/webhook/subscription/renew/{id}`: the same subscription with a later `expiration_time`.
    public func renew(_ subscription: OuraSubscription, clientID: String, clientSecret: String) async throws -> OuraSubscription {
        let answer: SubscriptionBody = try await call("PUT", "v2/webhook/subscription/renew/" + subscription.id, action: "the renewal",
                                                      headers: appHeaders(clientID, clientSecret))
        return try answer.subscription(action: "the renewal")
    }

    private func appHeaders(_ clientID: String, _ clientSecret: String) -> [String: String] {
        ["x-client-id": clientID, "x-client-secret": clientSecret, "Content-Type": "application/json"]
    }

    private struct TokenBody: Decodable {
        var access_token: String
        var refresh_token: String
        var expires_in: Int
    }

    private struct SubscriptionBody: Decodable {
        var id: String
        var callback_url: String
        var event_type: String
        var data_type: String
        var expiration_time: String

        func subscription(action: String) throws -> OuraSubscription {
            guard let expires = OuraTime.date(expiration_time) else {
                throw OuraError(action: action, status: 200, message: "expiration_time is not an ISO 8601 time")
            }
            return OuraSubscription(id: id, callbackURL: callback_url, eventType: event_type, dataType: data_type, expiresAt: expires)
        }
    }

    private func tokens(_ grant: [(String, String)], clientID: String, clientSecret: String, now: Date) async throws -> OuraTokens {
        let form = grant + [("client_id", clientID), ("client_secret", clientSecret)]
        let body: TokenBody = try await call("POST", "oauth/token", action: "the token request",
                                             headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                             body: FormEncoding.encode(form))
        return OuraTokens(accessToken: body.access_token, refreshToken: body.refresh_token,
                          expiresAt: now.addingTimeInterval(TimeInterval(body.expires_in)))
    }

    /// Sends the request and decodes a 2xx answer; any other status is an `OuraError` with Oura's own
    /// words (`detail`, `error_description` or `error`), made safe to print.
    private func call<Body: Decodable>(_ method: String, _ path: String, action: String, query: [(String, String)] = [],
                                       headers: [String: String], body: Data? = nil) async throws -> Body {
        var url = endpoints.api.appendingPathComponent(path)
        if !query.isEmpty {
            var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            parts.percentEncodedQuery = query.map { "\(FormEncoding.escape($0.0))=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
            url = parts.url!
        }
        let (status, data) = try await transport.send(method, url, headers: headers, body: body)
        guard (200..<300).contains(status) else {
            throw OuraError(action: action, status: status, message: Self.refusal(in: data))
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw OuraError(action: action, status: status, message: Self.place(error))
        }
    }

    private static func refusal(in data: Data) -> String {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let words = object?["detail"] as? String ?? object?["error_description"] as? String ?? object?["error"] as? String ?? ""
        return TextRules.replacingUnsafe(in: String(words.prefix(200))).text
    }

    private static func place(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key]).map(\.stringValue).joined(separator: ".") + " is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + " has the wrong type"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "not JSON" : context.codingPath.map(\.stringValue).joined(separator: ".") + " is unreadable"
        @unknown default: "unreadable"
        }
    }
}

/// One page of an Oura collection: `{"data": […], "next_token": …}`.
struct OuraPage<Document: Decodable>: Decodable {
    var data: [Document]
    var next_token: String?
}

/// Oura's times: ISO 8601 with the ring's UTC offset (`2024-03-11T07:12:04+01:00`), with or without fractions.
public enum OuraTime {
    public static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// The UTC offset a time was written with, in seconds (`+01:00` → 3600; `Z` → 0); nil without one.
    public static func offsetSeconds(_ text: String) -> Int? {
        if text.hasSuffix("Z") { return 0 }
        let tail = text.suffix(6)
        guard tail.count == 6, let sign = tail.first, sign == "+" || sign == "-", tail.dropFirst(3).first == ":",
              let hours = Int(tail.dropFirst().prefix(2)), let minutes = Int(tail.suffix(2)) else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
