import Foundation
import HealthCore
import HealthModel
import Hummingbird

/// The one fake the Withings tests allow: a local stand-in for Withings' cloud (which the tests cannot
/// reach), answering as developer.withings.com documents — the same paths (`/v2/oauth2`, `/measure`,
/// `/notify`, `/oauth2_user/authorize2`), form bodies, `{"status": …, "body": …}` envelopes and example
/// values — so the only change for the real service is the base URL hmon is given.
///
/// It keeps one Withings user (userid 363, the docs' example) and plays its side honestly: codes work
/// once, the refresh token rotates on every refresh (the old one is then refused), an access token the
/// test expires is answered with status 401, `lastupdate` filters by the groups' `modified` time, and a
/// subscription is checked with a HEAD request to the callback URL before it is accepted.
final class WithingsFixture: Sendable {
    static let userid = "363"
    /// The deadline tests give the Withings client: this fixture answers from the test process, whose task
    /// pool a full parallel `swift test` keeps busy for long stretches, so the client waits rather than fails.
    static let patientTimeout: TimeInterval = 600

    static let clientID = "fixture-client-id"
    static let clientSecret = "fixture-client-secret-0123456789abcdef"

    struct State {
        var authorization = FixtureAuthorization()
        var groups: [WithingsExamples.Group] = []
        var subscriptions: [String] = []
        var measureCalls = 0
        /// Groups per `getmeas` page; past it the answer says `more: 1` and the next `offset`.
        var pageSize = Int.max
        /// While true, `getmeas` answers wait (`holdMeasures`), as a slow Withings would; the waiting answers.
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
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
    var subscriptions: [String] { state.withLock { $0.subscriptions } }
    var measureCalls: Int { state.withLock { $0.measureCalls } }

    /// From now on the current access token is refused (status 401), as after its 3 hours.
    func expireAccessToken() { state.withLock { $0.authorization.accessTokenExpired = true } }

    /// From now on `getmeas` is counted at once but answered only after `releaseMeasures()`: a fetch in flight.
    func holdMeasures() { state.withLock { $0.holding = true } }

    func releaseMeasures() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for answer in waiting { answer.resume() }
    }

    /// Answers `getmeas` in pages of `size` groups.
    func pageMeasures(by size: Int) { state.withLock { $0.pageSize = size } }

    /// A new measure group, as the scale uploads it.
    func add(_ group: WithingsExamples.Group) { state.withLock { $0.groups.append(group) } }

    /// Posts the documented notification body to every subscribed callback URL; returns their statuses.
    func notify(startdate: Int64, enddate: Int64) async throws -> [Int] {
        var statuses: [Int] = []
        for callback in subscriptions {
            let body = "userid=\(Self.userid)&appli=1&startdate=\(startdate)&enddate=\(enddate)"
            let reply = try await RawHTTP.send("POST", callback, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
            statuses.append(reply.status)
        }
        return statuses
    }

    static func start(groups: [WithingsExamples.Group]) async throws -> WithingsFixture {
        let state = Shared(State(groups: groups))
        let router = Router()
        router.get("/oauth2_user/authorize2") { request, _ -> Response in
            let query = FormEncoding.decode(request.uri.query ?? "")
            guard query["response_type"] == "code", query["client_id"] == clientID, query["scope"]?.contains("user.metrics") == true,
                  let redirect = query["redirect_uri"], let stateValue = query["state"] else {
                return Response(status: .badRequest)
            }
            let code = state.withLock { $0.authorization.issueCode(for: redirect) }
            return FixtureAuthorization.sendBack(to: redirect, code: code, state: stateValue)
        }
        router.post("/v2/oauth2") { request, _ -> Response in
            let form = try await Self.form(request)
            guard form["action"] == "requesttoken", form["client_id"] == clientID, form["client_secret"] == clientSecret else {
                return Self.envelope(status: 503, error: "Invalid Params: invalid client_id or client_secret")
            }
            let granted = state.withLock {
                $0.authorization.grant(form) { serial in ("access-\(serial)-a075f8c14fb8df40b08ebc8508533dc3", "refresh-\(serial)-f631236f02b991810feb774765b6ae8e") }
            }
            guard granted else { return Self.envelope(status: 503, error: "Invalid Params: invalid code or refresh_token") }
            let tokens = state.withLock { ($0.authorization.accessToken, $0.authorization.refreshToken) }
            return Self.envelope(status: 0, body: ["userid": userid, "access_token": tokens.0, "refresh_token": tokens.1,
                                                   "expires_in": 10800, "scope": "user.metrics", "csrf_token": "PACnnxwHTaBQOzF7bQqwFUUotIuvtzSM",
                                                   "token_type": "Bearer"])
        }
        router.post("/measure") { request, _ -> Response in
            let form = try await Self.form(request)
            guard Self.bearerIsValid(request, state) else { return Self.envelope(status: 401, error: "invalid_token: The access token provided is invalid") }
            guard form["action"] == "getmeas" else { return Self.envelope(status: 2555, error: "Unknown action") }
            let since = Int64(form["lastupdate"] ?? "") ?? 0
            let (all, pageSize): ([WithingsExamples.Group], Int) = state.withLock { state in
                state.measureCalls += 1
                return (state.groups.filter { $0.modified > since }, state.pageSize)
            }
            await withCheckedContinuation { (answer: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.holding { state.held.append(answer) }
                    return !state.holding
                }
                if now { answer.resume() }
            }
            let offset = min(all.count, max(0, Int(form["offset"] ?? "") ?? 0))
            let groups = Array(all[offset..<(pageSize >= all.count - offset ? all.count : offset + pageSize)])
            let more = offset + groups.count < all.count
            let newest = all.map(\.modified).max() ?? since
            return Self.envelope(status: 0, body: ["updatetime": max(newest, since), "timezone": "Europe/Paris", "measuregrps": groups.map(\.json),
                                                   "more": more ? 1 : 0, "offset": more ? offset + groups.count : 0])
        }
        router.post("/notify") { request, _ -> Response in
            let form = try await Self.form(request)
            guard Self.bearerIsValid(request, state) else { return Self.envelope(status: 401, error: "invalid_token") }
            guard form["action"] == "subscribe", form["appli"] == "1", let callback = form["callbackurl"] else {
                return Self.envelope(status: 503, error: "Invalid Params")
            }
            // Withings checks the callback URL with a HEAD request and refuses the subscription unless it answers 200.
            guard (try? await RawHTTP.send("HEAD", callback))?.status == 200 else {
                return Self.envelope(status: 293, error: "The callback URL is either absent or incorrect")
            }
            state.withLock { $0.subscriptions.append(callback) }
            return Self.envelope(status: 0, body: [:])
        }
        let (url, task) = try await FixtureServer.start(router, name: "Withings")
        return WithingsFixture(url: url, state: state, task: task)
    }

    private static func bearerIsValid(_ request: Request, _ state: Shared) -> Bool {
        let header = request.headers[.authorization] ?? ""
        return state.withLock { $0.authorization.accepts(header) }
    }

    private static func form(_ request: Request) async throws -> [String: String] {
        let buffer = try await request.body.collect(upTo: 64 * 1024)
        return FormEncoding.decode(String(buffer: buffer))
    }

    private static func envelope(status: Int, body: [String: Any]? = nil, error: String? = nil) -> Response {
        var object: [String: Any] = ["status": status]
        if let body { object["body"] = body }
        if let error { object["error"] = error }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        // Withings answers HTTP 200 whatever the status in the envelope.
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The documented example answers, with values worked by hand in the tests.
enum WithingsExamples {
    /// A measure group shaped as the `getmeas` example of developer.withings.com (its `measures` entries
    /// carry `algo`, `fm`, `fw` as the example does; hmon reads `value`, `type`, `unit`).
    struct Group: Sendable {
        var grpid: Int64
        var attrib = 0
        var date: Int64
        var modified: Int64
        var measures: [Measure]

        struct Measure: Sendable {
            var value: Int64
            var type: Int
            var unit: Int
        }

        init(grpid: Int64, attrib: Int = 0, date: Int64, modified: Int64? = nil, measures: [(value: Int64, type: Int, unit: Int)]) {
            self.grpid = grpid
            self.attrib = attrib
            self.date = date
            // Wrapping: a test's impossible date (beyond what milliseconds hold) must not trap here first.
            self.modified = modified ?? date &+ 1000
            self.measures = measures.map { Measure(value: $0.value, type: $0.type, unit: $0.unit) }
        }

        var json: [String: Any] {
            [
                "grpid": grpid, "attrib": attrib, "date": date, "created": date &+ 1000, "modified": modified, "category": 1,
                "deviceid": "892359876fd8805ac45bab078c4828692f0276b1",
                "measures": measures.map { ["value": $0.value, "type": $0.type, "unit": $0.unit, "algo": 3425, "fm": 1, "fw": 1000] as [String: Any] },
                "comment": "A measurement comment", "timezone": "Europe/Paris",
            ]
        }
    }

    /// The documented example's own group: 65750 × 10^-3 kg, attributed ambiguously (attrib 1).
    static let documented = Group(grpid: 12, attrib: 1, date: 1594245600, modified: 1594257200, measures: [(65750, 1, -3)])
}
