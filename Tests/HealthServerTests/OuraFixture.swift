import Foundation
import HealthCore
import HealthModel
import Hummingbird

/// The one fake the Oura tests allow: a local stand-in for Oura's cloud (which the tests cannot reach),
/// answering as Oura's API v2 reference documents it — the same paths (`/oauth/authorize`, `/oauth/token`,
/// `/v2/usercollection/sleep`, `/v2/usercollection/daily_readiness`, `/v2/webhook/subscription`,
/// `/v2/webhook/subscription/renew/{id}`), form and JSON bodies, `{"data": […], "next_token": …}` pages and
/// the documented sleep and daily readiness fields — so the only change for the real service is the base
/// URL hmon is given.
///
/// It plays Oura's side honestly: codes work once, a refresh token works once (the old one is then
/// refused), an access token the test expires is answered 401, pages follow `next_token`, documents are
/// chosen by their `day` between `start_date` and `end_date`, and a subscription is made only after the
/// callback answered Oura's GET with the `challenge`.
final class OuraFixture: Sendable {
    static let clientID = "oura-fixture-client-id"
    static let clientSecret = "oura-fixture-client-secret-0123456789abcdef"

    struct Subscription: Sendable {
        var id: String
        var callback: String
        var eventType: String
        var dataType: String
        var expires: Date
    }

    struct State {
        var authorization = FixtureAuthorization()
        var nights: [OuraExamples.Night] = []
        var sleepCalls = 0
        var readiness: [OuraExamples.Readiness] = []
        /// Documents per page of a collection; past it the answer has a `next_token`.
        var pageSize = Int.max
        /// While true, the sleep collection answers a body cut short (not JSON).
        var answersBrokenJSON = false
        var subscriptions: [Subscription] = []
        var renewals = 0
        /// How long a new subscription lives; a renewal gives `renewedLifetime`.
        var subscriptionLifetime: TimeInterval = 24 * 3600
        var renewedLifetime: TimeInterval = 90 * 24 * 3600
    }

    typealias Shared = FixtureLock<State>

    let url: URL
    private let state: Shared
    private let task: Task<Void, Error>

    private init(url: URL, state: Shared, task: Task<Void, Error>) {
        self.url = url
        self.state = state
        self.task = task
    }

    deinit { task.cancel() }

    func stop() { task.cancel() }

    var refreshes: Int { state.withLock { $0.authorization.refreshes } }
    var refreshToken: String { state.withLock { $0.authorization.refreshToken } }
    var subscriptions: [Subscription] { state.withLock { $0.subscriptions } }
    var renewals: Int { state.withLock { $0.renewals } }
    var sleepCalls: Int { state.withLock { $0.sleepCalls } }

    /// From now on the current access token is refused (401), as after it expired.
    func expireAccessToken() { state.withLock { $0.authorization.accessTokenExpired = true } }

    /// From now on a refresh is refused too, as when the person revoked hmon in Oura's app.
    func revokeAuthorization() {
        state.withLock {
            $0.authorization.accessTokenExpired = true
            $0.authorization.refreshToken = "revoked"
        }
    }

    func answerBrokenJSON(_ broken: Bool) { state.withLock { $0.answersBrokenJSON = broken } }

    func pageSleep(by size: Int) { state.withLock { $0.pageSize = size } }

    /// A new sleep period, as the ring's sync makes it.
    func add(_ night: OuraExamples.Night) { state.withLock { $0.nights.append(night) } }

    /// A day's readiness, made or (for a day there is one already) computed again with another score.
    func setReadiness(_ readiness: OuraExamples.Readiness) {
        state.withLock { state in
            state.readiness.removeAll { $0.day == readiness.day }
            state.readiness.append(readiness)
        }
    }

    /// Posts the documented notification body to every subscribed callback, once per address; returns the statuses.
    func notify(objectID: String, dataType: String = "sleep") async throws -> [Int] {
        var statuses: [Int] = []
        for callback in Set(subscriptions.map(\.callback)).sorted() {
            let body = try JSONSerialization.data(withJSONObject: ["event_type": "create", "data_type": dataType, "object_id": objectID,
                                                                   "event_time": "2026-11-20T07:40:12+00:00", "user_id": "fixture-user-1"])
            statuses.append(try await RawHTTP.send("POST", callback, headers: ["Content-Type": "application/json"], body: body).status)
        }
        return statuses
    }

    static func start(nights: [OuraExamples.Night], readiness: [OuraExamples.Readiness] = []) async throws -> OuraFixture {
        let state = Shared(State(nights: nights, readiness: readiness))
        let router = Router()
        router.get("/oauth/authorize") { request, _ -> Response in
            let query = FormEncoding.decode(request.uri.query ?? "")
            guard query["response_type"] == "code", query["client_id"] == clientID, let redirect = query["redirect_uri"],
                  let stateValue = query["state"] else {
                return Response(status: .badRequest)
            }
            let code = state.withLock { $0.authorization.issueCode(for: redirect) }
            return FixtureAuthorization.sendBack(to: redirect, code: code, state: stateValue)
        }
        router.post("/oauth/token") { request, _ -> Response in
            let form = FormEncoding.decode(String(buffer: try await request.body.collect(upTo: 64 * 1024)))
            guard form["client_id"] == clientID, form["client_secret"] == clientSecret else {
                return json(["error": "invalid_client"], status: .unauthorized)
            }
            let granted = state.withLock {
                $0.authorization.grant(form) { serial in ("oura-access-\(serial)-5b1c0e8a9d", "oura-refresh-\(serial)-77c2f4a1e0") }
            }
            guard granted else { return json(["error": "invalid_grant"], status: .badRequest) }
            let tokens = state.withLock { ($0.authorization.accessToken, $0.authorization.refreshToken) }
            return json(["token_type": "bearer", "access_token": tokens.0, "expires_in": 86400, "refresh_token": tokens.1])
        }
        router.get("/v2/usercollection/sleep") { request, _ -> Response in
            let header = request.headers[.authorization] ?? ""
            let valid = state.withLock { $0.authorization.accepts(header) }
            guard valid else { return json(["detail": "Unauthorized"], status: .unauthorized) }
            let query = FormEncoding.decode(request.uri.query ?? "")
            guard let from = query["start_date"], let to = query["end_date"] else {
                return json(["detail": "start_date and end_date are required"], status: .unprocessableContent)
            }
            let (broken, all, pageSize): (Bool, [OuraExamples.Night], Int) = state.withLock { state in
                state.sleepCalls += 1
                return (state.answersBrokenJSON, state.nights.filter { $0.day >= from && $0.day <= to }, state.pageSize)
            }
            if broken {
                return Response(status: .ok, headers: [.contentType: "application/json"],
                                body: .init(byteBuffer: ByteBuffer(string: "{\"data\": [{\"id\": \"8f9a5221-639e")))
            }
            return page(all.map(\.json), pageSize: pageSize, query: query)
        }
        router.get("/v2/usercollection/daily_readiness") { request, _ -> Response in
            let header = request.headers[.authorization] ?? ""
            guard state.withLock({ $0.authorization.accepts(header) }) else { return json(["detail": "Unauthorized"], status: .unauthorized) }
            let query = FormEncoding.decode(request.uri.query ?? "")
            guard let from = query["start_date"], let to = query["end_date"] else {
                return json(["detail": "start_date and end_date are required"], status: .unprocessableContent)
            }
            let (all, pageSize) = state.withLock { state in (state.readiness.filter { $0.day >= from && $0.day <= to }, state.pageSize) }
            return page(all.map(\.json), pageSize: pageSize, query: query)
        }
        router.post("/v2/webhook/subscription") { request, _ -> Response in
            guard Self.header(request, "x-client-id") == clientID, Self.header(request, "x-client-secret") == clientSecret else {
                return json(["detail": "Forbidden"], status: .forbidden)
            }
            let bytes = try await request.body.collect(upTo: 64 * 1024)
            let body = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
            guard let callback = body["callback_url"] as? String, let token = body["verification_token"] as? String,
                  let event = body["event_type"] as? String, let data = body["data_type"] as? String else {
                return json(["detail": "callback_url, verification_token, event_type and data_type are required"], status: .unprocessableContent)
            }
            // Oura checks the callback first: a GET with the token and a challenge, which must come back.
            let challenge = UUID().uuidString
            var check = URLComponents(string: callback)!
            check.queryItems = [URLQueryItem(name: "verification_token", value: token), URLQueryItem(name: "challenge", value: challenge)]
            let answer = try? await RawHTTP.send("GET", check.url!.absoluteString)
            let echoed = answer.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }?["challenge"] as? String
            guard answer?.status == 200, echoed == challenge else {
                return json(["detail": "Callback verification failed"], status: .badRequest)
            }
            let subscription = state.withLock { state in
                let made = Subscription(id: UUID().uuidString.lowercased(), callback: callback, eventType: event, dataType: data,
                                        expires: Date().addingTimeInterval(state.subscriptionLifetime))
                state.subscriptions.append(made)
                return made
            }
            return json(Self.object(subscription), status: .created)
        }
        router.put("/v2/webhook/subscription/renew/:id") { request, context -> Response in
            guard Self.header(request, "x-client-id") == clientID, Self.header(request, "x-client-secret") == clientSecret else {
                return json(["detail": "Forbidden"], status: .forbidden)
            }
            let id = context.parameters.get("id") ?? ""
            let renewed: Subscription? = state.withLock { state in
                guard let index = state.subscriptions.firstIndex(where: { $0.id == id }) else { return nil }
                state.subscriptions[index].expires = Date().addingTimeInterval(state.renewedLifetime)
                state.renewals += 1
                return state.subscriptions[index]
            }
            guard let renewed else { return json(["detail": "Not found"], status: .notFound) }
            return json(Self.object(renewed))
        }
        let (url, task) = try await FixtureServer.start(router, name: "Oura")
        return OuraFixture(url: url, state: state, task: task)
    }

    /// A request header by its lowercase name.
    private static func header(_ request: Request, _ name: String) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    private static func object(_ subscription: Subscription) -> [String: Any] {
        ["id": subscription.id, "callback_url": subscription.callback, "event_type": subscription.eventType,
         "data_type": subscription.dataType, "expiration_time": ISO8601DateFormatter().string(from: subscription.expires)]
    }

    /// One page of a collection's documents, from the `next_token` asked (the offset, as this fixture writes it).
    private static func page(_ all: [[String: Any]], pageSize: Int, query: [String: String]) -> Response {
        let offset = min(all.count, Int(query["next_token"] ?? "") ?? 0)
        let page = Array(all[offset..<min(all.count, offset + min(pageSize, all.count - offset))])
        let next = offset + page.count < all.count ? String(offset + page.count) : nil
        return json(["data": page, "next_token": next.map { $0 as Any } ?? NSNull()])
    }

    private static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Sleep documents shaped as the `sleep` example of Oura's API v2 reference (every documented field,
/// including those hmon does not read), with figures worked by hand in the tests.
enum OuraExamples {
    struct Night: Sendable {
        var id: String
        /// Oura's `day`, YYYY-MM-DD.
        var day: String
        var bedtimeStart: String
        var bedtimeEnd: String
        var type = "long_sleep"
        var averageHRV: Int? = 48
        var lowestHeartRate: Int? = 52
        var totalSleep = 26_100        // 435 min
        var timeInBed = 28_800         // 480 min
        var deep = 5_400               // 90 min
        var rem = 6_300                // 105 min
        var light = 14_400             // 240 min
        var awake = 2_700              // 45 min

        var json: [String: Any] {
            [
                "id": id, "day": day, "bedtime_start": bedtimeStart, "bedtime_end": bedtimeEnd, "type": type,
                "average_breath": 14.875, "average_heart_rate": 57.625, "average_hrv": averageHRV.map { $0 as Any } ?? NSNull(),
                "awake_time": awake, "deep_sleep_duration": deep, "efficiency": 91,
                "heart_rate": ["interval": 300.0, "items": [61.0, 58.0, NSNull(), 55.0] as [Any], "timestamp": bedtimeStart] as [String: Any],
                "hrv": ["interval": 300.0, "items": [39.0, 47.0, NSNull(), 52.0] as [Any], "timestamp": bedtimeStart] as [String: Any],
                "latency": 540, "light_sleep_duration": light, "low_battery_alert": false,
                "lowest_heart_rate": lowestHeartRate.map { $0 as Any } ?? NSNull(), "movement_30_sec": "1111211111", "period": 0,
                "readiness": ["contributors": ["activity_balance": 82, "body_temperature": 99, "hrv_balance": 74, "previous_day_activity": 88,
                                               "previous_night": 90, "recovery_index": 100, "resting_heart_rate": 95, "sleep_balance": 86],
                              "score": 84, "temperature_deviation": -0.12, "temperature_trend_deviation": 0.05] as [String: Any],
                "readiness_score_delta": 0, "rem_sleep_duration": rem, "restless_periods": 212,
                "sleep_phase_5_min": "4422223333", "sleep_score_delta": 0, "sleep_algorithm_version": "v2",
                "time_in_bed": timeInBed, "total_sleep_duration": totalSleep,
            ]
        }

        /// A long sleep from 23:15 the evening before `day` to 07:15 on it, at UTC+01:00.
        static func night(_ id: String, endingOn day: Day) -> Night {
            Night(id: id, day: day.description, bedtimeStart: "\(day.adding(days: -1))T23:15:00+01:00", bedtimeEnd: "\(day)T07:15:00+01:00")
        }
    }

    /// A daily readiness document shaped as the `daily_readiness` example of Oura's API v2 reference (every
    /// documented field: the contributors and temperature deviations hmon does not read).
    struct Readiness: Sendable {
        var id: String
        /// Oura's `day`, YYYY-MM-DD.
        var day: String
        /// Null until Oura has computed the day's score.
        var score: Int? = 82

        var json: [String: Any] {
            [
                "id": id, "day": day, "score": score.map { $0 as Any } ?? NSNull(),
                "contributors": ["activity_balance": 82, "body_temperature": 99, "hrv_balance": 74, "previous_day_activity": 88,
                                 "previous_night": 90, "recovery_index": 100, "resting_heart_rate": 95, "sleep_balance": 86,
                                 "sleep_regularity": 91] as [String: Any],
                "temperature_deviation": -0.1, "temperature_trend_deviation": 0.05, "timestamp": "\(day)T00:00:00+00:00",
            ]
        }
    }
}
