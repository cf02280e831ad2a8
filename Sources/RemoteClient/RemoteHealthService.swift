import Foundation
import CheckedNumbers
import HealthCore
import SAMIContract
import HealthModel

/// `HealthService` over HTTP: speaks the SAMI contract (`sami-api.md`) to `hmon serve` or any server that
/// implements it, so the dashboard and the command line work unchanged against a server.
///
/// Sign-in posts the credentials to `/authorize` the way the ancestor app's web view did, and reads the
/// answer's redirect without following it: with `.implicit` the token comes in the fragment; with
/// `.authorizationCode` (the default) a code comes in the query and `/token` exchanges it for an access
/// token and a refresh token, so the session outlives the access token's hour.
///
/// Every fault is a `HealthError` naming the server: connection refused, a timeout (set, never a hang),
/// a 5xx or JSON that is not the contract's → `.serverUnreachable` / `.serverError`; a 401 that a refresh
/// cannot cure → `.sessionExpired`. The profile travels over an hmon extension of the contract,
/// `GET`/`PUT /v1.1/users/self/profile`.
public final class RemoteHealthService: HealthService {
    /// How `signIn` obtains its token.
    public enum SignInFlow: String, Sendable {
        /// `response_type=token`: the token in the redirect's fragment, no refresh token.
        case implicit
        /// `response_type=code` with a PKCE challenge, then `POST /token` with its verifier: also a refresh token.
        case authorizationCode
    }

    public struct Options: Sendable {
        /// The OAuth client hmon signs in as: the server's built-in public client.
        public var clientID: String
        public var redirectURI: String
        public var flow: SignInFlow
        /// Seconds a request may take before it fails with a message.
        public var timeout: TimeInterval

        public init(clientID: String = BuiltInClient.id, redirectURI: String = BuiltInClient.redirectURI,
                    flow: SignInFlow = .authorizationCode, timeout: TimeInterval = 10) {
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.flow = flow
            self.timeout = timeout
        }
    }

    public let options: Options
    let http: HTTPTransport
    /// The views this server answered, with their validators; whether it has views at all.
    let views = RemoteViews()
    /// What the status bar says while a write the server put off waits to be sent again.
    let writeWait = WriteWait()
    private let keeper: SessionKeeper
    private let now: @Sendable () -> Date
    /// How a write waits out a server's `Retry-After` (tests move a clock instead).
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - server: the base URL, e.g. `http://127.0.0.1:8080`.
    ///   - onSessionChange: called with the new session after a sign-in or a refresh (save it), and with nil
    ///     after a sign-out or when the server rejects the session (forget it).
    public init(server: URL, options: Options = Options(), now: @escaping @Sendable () -> Date = Date.init,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                onSessionChange: @escaping @Sendable (Session?) -> Void = { _ in }) {
        self.sleep = sleep
        self.options = options
        self.http = HTTPTransport(server: server, timeout: options.timeout)
        self.keeper = SessionKeeper(onChange: onSessionChange)
        self.now = now
    }

    public var location: String { http.serverName }
    public var offlineSince: Date? { http.offlineSince }

    /// The session in use (with the latest token after a refresh), nil when signed out.
    public func currentSession() async -> Session? { await keeper.session }

    // MARK: Accounts

    public func signIn(name: String, password: String) async throws -> Session {
        let grant: SAMI.TokenResponse
        switch options.flow {
        case .implicit: grant = try await authorizeImplicitly(name: name, password: password)
        case .authorizationCode: grant = try await authorizeWithCode(name: name, password: password)
        }
        let provisional = Session(userID: "", userName: name, location: location, token: grant.accessToken,
                                  refreshToken: grant.refreshToken, expiresAt: expiry(grant.expiresIn))
        let user = try await fetchUser(token: provisional.token)
        let session = Session(userID: user.id, userName: user.name, location: location, token: grant.accessToken,
                              refreshToken: grant.refreshToken, expiresAt: provisional.expiresAt)
        await keeper.replace(with: session)
        return session
    }

    public func resume(_ session: Session) async throws -> User {
        await keeper.replace(with: session, notify: false)
        do {
            return try await currentUser()
        } catch HealthError.notSignedIn {
            throw HealthError.sessionExpired
        }
    }

    public func signOut() async throws {
        guard let session = await keeper.session else { return }
        // Best effort: a server that cannot be reached cannot be told; the local session is forgotten anyway.
        // The refresh token goes too, or it could mint new access tokens after the sign-out.
        for token in [session.token, session.refreshToken].compactMap({ $0 }) {
            _ = try? await http.send("PUT", http.url("/revokeAccessToken", [("token", token)]),
                                     headers: ["Authorization": "Bearer \(session.token)"])
        }
        await keeper.replace(with: nil)
    }

    /// A server always has accounts: they are created there (`hmon user add` next to `hmon serve`).
    public func hasAccounts() async throws -> Bool { true }

    public func createAccount(_ account: NewAccount) async throws -> User {
        throw HealthError.unsupported("create accounts on the server with `hmon user add \(account.name)`")
    }

    public func currentUser() async throws -> User {
        let reply: SAMI.DataEnvelope<SAMI.UserJSON> = try await call("GET", "/v1.1/users/self")
        return reply.data.user
    }

    /// hmon extension: `GET /v1.1/users/self/profile` → `{"data": Profile}`.
    public func profile() async throws -> Profile {
        let reply: SAMI.DataEnvelope<Profile> = try await call("GET", "/v1.1/users/self/profile")
        return reply.data
    }

    /// hmon extension: `PUT /v1.1/users/self/profile` with a `Profile` body.
    public func updateProfile(_ profile: Profile) async throws {
        let _: SAMI.DataEnvelope<Profile> = try await call("PUT", "/v1.1/users/self/profile", body: try encode(profile))
    }

    // MARK: Devices

    public func devices() async throws -> [Device] {
        let uid = try await signedInSession().userID
        var devices: [Device] = []
        while true {
            let page: SAMI.DevicesPage = try await call("GET", "/v1.1/users/\(pathEscape(uid))/devices",
                                                        query: [("offset", "\(devices.count)"), ("count", "100"),
                                                                ("includeProperties", "false")])
            devices += page.data.devices.map(\.device)
            if page.data.devices.isEmpty || devices.count >= page.total { return devices }
        }
    }

    public func addDevice(name: String, typeID: String) async throws -> Device {
        let uid = try await signedInSession().userID
        let body = try encode(SAMI.NewDeviceJSON(name: name, uid: uid, dtid: typeID))
        let reply: SAMI.DataEnvelope<SAMI.DeviceJSON> = try await call("POST", "/v1.1/devices", body: body,
                                                                         subject: .deviceType(typeID))
        return reply.data.device
    }

    /// `PUT /v1.1/devices/{did}` with the new name.
    public func renameDevice(id: String, to name: String) async throws -> Device {
        let body = try JSONSerialization.data(withJSONObject: ["name": name])
        let reply: SAMI.DataEnvelope<SAMI.DeviceJSON> = try await call("PUT", "/v1.1/devices/\(pathEscape(id))", body: body,
                                                                         subject: .device(id))
        return reply.data.device
    }

    /// `DELETE /v1.1/devices/{did}` (`withReadings=true`, hmon's extension, when asked). A device kept
    /// because it has readings is the server's 409, whose message says how many.
    public func deleteDevice(id: String, withReadings: Bool) async throws -> DeviceDeletion {
        let _: SAMI.DataEnvelope<SAMI.DeviceJSON> = try await call("DELETE", "/v1.1/devices/\(pathEscape(id))",
                                                                     query: withReadings ? [("withReadings", "true")] : [],
                                                                     subject: .device(id))
        return DeviceDeletion(deleted: true, readings: 0)
    }

    public func deviceTypes() async throws -> [DeviceType] {
        var types: [DeviceType] = []
        while true {
            let page: SAMI.DeviceTypesPage = try await call("GET", "/v1.1/devicetypes",
                                                            query: [("offset", "\(types.count)"), ("count", "100")])
            types += page.data.deviceTypes.map(\.deviceType)
            if page.data.deviceTypes.isEmpty || types.count >= page.total { return types }
        }
    }

    public func deviceType(named name: String) async throws -> DeviceType? {
        let page: SAMI.DeviceTypesPage = try await call("GET", "/v1.1/devicetypes",
                                                        query: [("name", name), ("offset", "0"), ("count", "1")])
        return page.data.deviceTypes.first?.deviceType
    }

    public func manifest(ofType typeID: String) async throws -> Manifest {
        let reply: RawBody = try await call(
            "GET", "/v1.1/devicetypes/\(pathEscape(typeID))/manifests/latest/properties", subject: .deviceType(typeID))
        do {
            return try SAMI.ManifestProperties.decode(ordered: reply.data).manifest
        } catch {
            throw HealthError.serverError("the server at \(location) answered with something that is not the SAMI contract (a manifest)")
        }
    }

    // MARK: Messages

    /// `messages/last` answers at most 100 (SAMI's limit, kept by `hmon serve`); more (the HRV screen asks
    /// for 400) are read newest first through the paged range, as many pages as it takes.
    public func lastMessages(device: String, count: Int, field: String?) async throws -> [Message] {
        guard count <= Self.lastMessagesLimit else {
            var page = MessageQuery(sdid: device, startDate: 0, endDate: .max - 1, order: .desc,
                                    count: min(count, StoreRules.maximumPageSize), fieldPresence: field)
            var found: [Message] = []
            repeat {
                let answer = try await messages(page)
                found += answer.messages
                page.offset = answer.next
            } while page.offset != nil && found.count < count
            return Array(found.prefix(count))
        }
        var query = [("sdids", device), ("count", "\(count)")]
        if let field { query.append(("fieldPresence", field)) }
        let reply: SAMI.LastMessages = try await call("GET", "/v1.1/messages/last", query: query, subject: .device(device))
        return reply.data
    }

    /// The most `GET /v1.1/messages/last` gives in one answer.
    static let lastMessagesLimit = 100

    public func messages(_ q: MessageQuery) async throws -> MessagePage {
        var query = [q.sdid.map { ("sdid", $0) } ?? ("uid", "self"), ("startDate", "\(q.startDate)"),
                     ("endDate", "\(q.endDate)"), ("count", "\(q.count)"), ("order", q.order.rawValue)]
        if let offset = q.offset { query.append(("offset", offset)) }
        if let field = q.fieldPresence { query.append(("fieldPresence", field)) }
        let reply: SAMI.MessagesRange = try await call("GET", "/v1.1/messages", query: query, subject: q.sdid.map { .device($0) } ?? .none)
        return reply.page
    }

    @discardableResult
    public func post(_ message: NewMessage) async throws -> String {
        let reply: SAMI.DataEnvelope<SAMI.MessageID> = try await call(
            "POST", "/v1.1/messages", body: try encode(SAMI.PostMessage(message)), subject: .device(message.sdid))
        return reply.data.mid
    }

    /// hmon extension: `GET /v1.1/messages/{mid}`.
    public func reading(id: String) async throws -> Message {
        let reply: SAMI.DataEnvelope<Message> = try await call("GET", "/v1.1/messages/\(pathEscape(id))", subject: .reading(id))
        return reply.data
    }

    /// SAMI's routes find a reading by its whole id only: a shorter one is refused, saying so.
    public func readingID(matching text: String) async throws -> String {
        try await ReadingIDPrefix.resolve(text) { _, _ in
            throw HealthError.invalidValue("over a server, give the reading's whole id, as `hmon reading list` shows it")
        }
    }

    /// The contract lists one device at a time: every device's readings in the range, merged. Against a server
    /// without hmon's views.
    func readingsDeviceByDevice(_ query: ReadingsQuery) async throws -> [Message] {
        var all: [Message] = []
        for device in try await devices() {
            var page = MessageQuery(sdid: device.id, startDate: max(0, query.from), endDate: query.to - 1, order: query.order,
                                    count: min(query.limit ?? StoreRules.maximumPageSize, StoreRules.maximumPageSize),
                                    fieldPresence: query.field)
            var mine: [Message] = []
            repeat {
                let answer = try await messages(page)
                mine += answer.messages
                page.offset = answer.next
            } while page.offset != nil && mine.count < query.limit ?? .max
            all += mine
        }
        all.sort { query.order == .desc ? ($0.ts, $0.mid) > ($1.ts, $1.mid) : ($0.ts, $0.mid) < ($1.ts, $1.mid) }
        if let limit = query.limit { all = Array(all.prefix(limit)) }
        return all
    }

    /// hmon extension: `PUT /v1.1/messages/{mid}` with `{"ts":…,"data":{…}}`.
    @discardableResult
    public func editReading(id: String, _ change: ReadingChange) async throws -> Message {
        let reply: SAMI.DataEnvelope<Message> = try await call(
            "PUT", "/v1.1/messages/\(pathEscape(id))", body: try encode(change), subject: .reading(id))
        return reply.data
    }

    /// hmon extension: `DELETE /v1.1/messages/{mid}`.
    public func deleteReading(id: String) async throws {
        let _: SAMI.DataEnvelope<SAMI.MessageID> = try await call("DELETE", "/v1.1/messages/\(pathEscape(id))", subject: .reading(id))
    }

    /// hmon extension: `POST /v1.1/hmon/undo`: the server keeps the journal, per sign-in (the token family
    /// this session's tokens belong to), so the dashboard and `hmon undo --server` share it.
    public func undoLastChange() async throws -> UndoOutcome {
        let reply: SAMI.DataEnvelope<UndoOutcome> = try await call("POST", "/v1.1/hmon/undo")
        return reply.data
    }

    // MARK: Derived views

    /// Computed here from the day's readings, with the same pure calculator the local store uses: against a
    /// server without hmon's views.
    func energySummaryFromReadings(for day: Day, now: Date, calendar: Calendar) async throws -> EnergySummary {
        let start = day.start(in: calendar).millisecondsSince1970
        let end = day.adding(days: 1).start(in: calendar).millisecondsSince1970
        let profile = try await self.profile()
        var readings: [[String: FieldValue]] = []
        var latestWeight: Message?
        let devices = try await devices()
        for device in devices {
            readings += try await allMessages(sdid: device.id, from: start, to: end - 1, field: nil).map(\.data)
            let lastWeight = try await messages(MessageQuery(sdid: device.id, startDate: 0, endDate: end - 1, order: .desc,
                                                             count: 1, fieldPresence: Field.weight)).messages.first
            if let lastWeight, lastWeight.ts > latestWeight?.ts ?? .min { latestWeight = lastWeight }
        }
        var weightKg = latestWeight?.data[Field.weight]?.number
        if let latestWeight, let kg = weightKg {
            // The day's weight, as the local store and the insights read it: the mean of that day's weigh-ins.
            let window = DayWeight.window(of: WeightReading(date: latestWeight.date, kg: kg), end: end, calendar: calendar)
            var weighIns: [Double] = []
            for device in devices {
                weighIns += try await allMessages(sdid: device.id, from: window.from, to: window.to - 1, field: Field.weight)
                    .compactMap { $0.data[Field.weight]?.number }
            }
            weightKg = DayWeight.kg(weighIns, latest: kg)
        }
        return EnergyCalculator.summary(day: day, profile: profile, weightKg: weightKg,
                                        readings: readings, now: now, calendar: calendar)
    }

    /// Computed here from the weight readings, with the same builder the local store uses: against a server
    /// without hmon's views.
    func weightSeriesFromReadings(days: ClosedRange<Day>, calendar: Calendar) async throws -> WeightSeries {
        let from = days.lowerBound.adding(days: -WeightSeriesBuilder.carryDays).start(in: calendar).millisecondsSince1970
        let to = days.upperBound.adding(days: 1).start(in: calendar).millisecondsSince1970
        var readings: [WeightReading] = []
        for device in try await devices() {
            for message in try await allMessages(sdid: device.id, from: from, to: to - 1, field: Field.weight) {
                if let kg = message.data[Field.weight]?.number { readings.append(WeightReading(date: message.date, kg: kg)) }
            }
        }
        readings.sort { $0.date < $1.date }
        return WeightSeriesBuilder.series(readings, days: days, calendar: calendar)
    }

    /// Every reading of a device in `[from, to]`, oldest first, page by page.
    private func allMessages(sdid: String, from: Int64, to: Int64, field: String?) async throws -> [Message] {
        var query = MessageQuery(sdid: sdid, startDate: from, endDate: to, order: .asc, count: 1000, fieldPresence: field)
        var all: [Message] = []
        repeat {
            let page = try await messages(query)
            all += page.messages
            query.offset = page.next
        } while query.offset != nil
        return all
    }

    /// A server cannot say cheaply whether data changed: the dashboard polls instead.
    public func changeToken() async throws -> Int64? { nil }

    // MARK: OAuth

    private func authorizeImplicitly(name: String, password: String) async throws -> SAMI.TokenResponse {
        let state = Self.randomState()
        let location = try await postAuthorize(responseType: "token", state: state, name: name, password: password)
        let fields = FormEncoding.decode(location.fragment ?? "")
        guard fields["state"] == state, let token = fields["access_token"], !token.isEmpty else {
            throw HealthError.serverError("the server at \(self.location) answered the sign-in without a token")
        }
        return SAMI.TokenResponse(accessToken: token, expiresIn: Int(fields["expires_in"] ?? "") ?? 3600,
                                  refreshToken: nil, scope: fields["scope"] ?? "read,write")
    }

    private func authorizeWithCode(name: String, password: String) async throws -> SAMI.TokenResponse {
        let state = Self.randomState()
        // PKCE (RFC 7636): hmon's client has no secret, so the verifier, which stays in this process until the
        // exchange, is what makes the code useless to whoever else sees it. hmon serve requires it; a server
        // that does not know PKCE ignores both parameters.
        let verifier = PKCE.newVerifier()
        let location = try await postAuthorize(responseType: "code", state: state, name: name, password: password,
                                               extra: [("code_challenge", PKCE.challenge(for: verifier)),
                                                       ("code_challenge_method", PKCE.method)])
        let fields = FormEncoding.decode(location.query ?? "")
        guard fields["state"] == state, let code = fields["code"], !code.isEmpty else {
            throw HealthError.serverError("the server at \(self.location) answered the sign-in without a code")
        }
        return try await requestToken([("grant_type", "authorization_code"), ("code", code),
                                       ("redirect_uri", options.redirectURI), ("client_id", options.clientID),
                                       ("code_verifier", verifier)])
    }

    /// Posts the sign-in form (with `extra` parameters) and returns the redirect's `Location` (the redirect
    /// is never followed).
    private func postAuthorize(responseType: String, state: String, name: String, password: String,
                               extra: [(String, String)] = []) async throws -> URLComponents {
        let form = FormEncoding.encode([
            ("client_id", options.clientID), ("response_type", responseType), ("redirect_uri", options.redirectURI),
            ("state", state), ("scope", "read,write"),
        ] + extra + [("username", name), ("password", password)])
        let reply = try await http.send("POST", http.url("/authorize"),
                                        headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
        switch reply.status {
        case 302, 303:
            guard let target = reply.header("Location"), let components = URLComponents(string: target) else {
                throw HealthError.serverError("the server at \(location) redirected the sign-in nowhere")
            }
            if let error = FormEncoding.decode(components.query ?? "")["error"] {
                throw HealthError.serverError("the server at \(location) refused the sign-in: \(error)")
            }
            return components
        case 401: throw HealthError.wrongPassword
        case 429: throw rateLimited(reply)
        default: throw unexpected(reply)
        }
    }

    private func requestToken(_ form: [(String, String)]) async throws -> SAMI.TokenResponse {
        let reply = try await http.send("POST", http.url("/token"),
                                        headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: FormEncoding.encode(form))
        switch reply.status {
        case 200:
            return try decode(SAMI.TokenResponse.self, reply)
        case 400, 401:
            if let error = try? JSONDecoder().decode(SAMI.OAuthError.self, from: reply.body), error.error == .invalidGrant {
                throw HealthError.sessionExpired
            }
            throw HealthError.serverError("the server at \(location) refused to issue a token (HTTP \(reply.status))")
        case 429: throw rateLimited(reply)
        default: throw unexpected(reply)
        }
    }

    private func expiry(_ seconds: Int) -> Date { now().addingTimeInterval(TimeInterval(seconds)) }

    private static func randomState() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    // MARK: Calls

    /// What a 403 or 404 is about, so the error names it.
    enum Subject {
        case none, device(String), deviceType(String), reading(String)
    }

    private func signedInSession() async throws -> Session {
        guard let session = await keeper.session else { throw HealthError.notSignedIn }
        return session
    }

    private func fetchUser(token: String) async throws -> User {
        let reply = try await http.send("GET", http.url("/v1.1/users/self"), headers: ["Authorization": "Bearer \(token)"])
        guard reply.status == 200 else { throw problem(reply, subject: .none) }
        return try decode(SAMI.DataEnvelope<SAMI.UserJSON>.self, reply).data.user
    }

    /// `call` for the extensions in other files (`RemoteHealthService+LinkedSources`).
    func authorizedCall<Reply: Decodable>(_ method: String, _ path: String) async throws -> Reply { try await call(method, path) }

    /// An authorized `/v1.1` call. Refreshes an expired token first, and after a 401 refreshes once and retries.
    private func call<Reply: Decodable>(_ method: String, _ path: String, query: [(String, String)] = [],
                                        body: Data? = nil, subject: Subject = .none) async throws -> Reply {
        var reply = try await authorizedReply(method, path, query: query, body: body)
        // A write the server put off (429: over its limit, 503: busy) is sent again once it says it may be,
        // so a weigh-in typed is not lost; a read is not: the screen keeps what it showed, and R asks again.
        var retries = 0
        defer { if retries > 0 { writeWait.end() } }
        while method != "GET", [429, 503].contains(reply.status), retries < Self.writeRetries,
              let wait = Self.retryAfter(reply), wait <= Self.longestWriteWait {
            retries += 1
            writeWait.begin(WriteWait.notice(server: location, status: reply.status, retryAt: now().addingTimeInterval(Double(wait))))
            try await sleep(.seconds(wait))
            reply = try await authorizedReply(method, path, query: query, body: body)
        }
        guard (200..<300).contains(reply.status) else { throw problem(reply, subject: subject) }
        return try decode(Reply.self, reply)
    }

    /// How often a put-off write is sent again, and the longest wait it accepts (past it, the error says
    /// when to try: a day's limit used up is not waited out).
    static let writeRetries = 3
    static let longestWriteWait = 60

    /// `Retry-After` in whole seconds (at least 1); nil without one.
    static func retryAfter(_ reply: HTTPReply) -> Int? {
        reply.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(1, $0) }
    }

    /// The answer to an authorized call whatever its status, but for a 401 that a refresh cannot cure.
    func authorizedReply(_ method: String, _ path: String, query: [(String, String)] = [], body: Data? = nil,
                         headers extra: [String: String] = [:]) async throws -> HTTPReply {
        var session = try await signedInSession()
        if let expiresAt = session.expiresAt, expiresAt <= now(), session.refreshToken != nil {
            session = try await refresh(from: session)
        }
        var reply = try await send(method, path, query: query, body: body, token: session.token, headers: extra)
        if reply.status == 401 {
            guard session.refreshToken != nil else {
                await keeper.replace(with: nil)
                throw HealthError.sessionExpired
            }
            session = try await refresh(from: session)
            reply = try await send(method, path, query: query, body: body, token: session.token, headers: extra)
            if reply.status == 401 {
                await keeper.replace(with: nil)
                throw HealthError.sessionExpired
            }
        }
        return reply
    }

    private func send(_ method: String, _ path: String, query: [(String, String)], body: Data?, token: String,
                      headers extra: [String: String] = [:]) async throws -> HTTPReply {
        var headers = ["Authorization": "Bearer \(token)", "Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        headers.merge(extra) { _, new in new }
        return try await http.send(method, http.url(path, query), headers: headers, body: body)
    }

    /// Exchanges the refresh token for a new access token, once for all concurrent callers.
    func refresh(from stale: Session) async throws -> Session {
        try await keeper.refresh(from: stale) { [self] session in
            guard let refreshToken = session.refreshToken else { throw HealthError.sessionExpired }
            let grant = try await requestToken([("grant_type", "refresh_token"), ("refresh_token", refreshToken),
                                                ("client_id", options.clientID)])
            var fresh = session
            fresh.token = grant.accessToken
            fresh.refreshToken = grant.refreshToken ?? refreshToken
            fresh.expiresAt = expiry(grant.expiresIn)
            return fresh
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ reply: HTTPReply) throws -> T {
        if T.self == RawBody.self { return RawBody(data: reply.body) as! T }
        do {
            return try JSONDecoder().decode(T.self, from: reply.body)
        } catch {
            throw HealthError.serverError("the server at \(location) answered with something that is not the SAMI contract (HTTP \(reply.status))")
        }
    }

    private func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONEncoder().encode(value)
    }

    /// Turns an error answer into the `HealthError` a person can act on.
    func problem(_ reply: HTTPReply, subject: Subject) -> HealthError {
        guard let envelope = try? JSONDecoder().decode(SAMI.ErrorEnvelope.self, from: reply.body) else {
            return unexpected(reply)
        }
        switch (envelope.error.code, subject) {
        case (SAMI.ErrorCode.unauthorized, _): return .sessionExpired
        case (SAMI.ErrorCode.forbidden, .device(let id)): return .notYourDevice(id)
        case (SAMI.ErrorCode.notFound, .device(let id)): return .unknownDevice(id)
        case (SAMI.ErrorCode.forbidden, .reading(let id)): return .notYourReading(id)
        case (SAMI.ErrorCode.notFound, .reading(let id)): return .unknownReading(id)
        case (SAMI.ErrorCode.deviceTypeNotFound, .deviceType(let id)): return .unknownDeviceType(id)
        case (SAMI.ErrorCode.deviceTypeNotFound, _): return .unknownDeviceType(envelope.error.message)
        case (SAMI.ErrorCode.userNameTaken, _): return .nameTaken(envelope.error.message)
        case (SAMI.ErrorCode.validation, _): return .invalidValue(envelope.summary)
        case (SAMI.ErrorCode.rateLimited, _): return rateLimited(reply)
        default:
            if reply.status >= 500 { return .serverError("the server at \(location) failed: \(envelope.summary)") }
            return .serverError("the server at \(location) refused: \(envelope.summary)")
        }
    }

    private func unexpected(_ reply: HTTPReply) -> HealthError {
        if reply.status >= 500 {
            return .serverError("the server at \(location) failed (HTTP \(reply.status)): try again later")
        }
        return .serverError("the server at \(location) answered with something that is not the SAMI contract (HTTP \(reply.status))")
    }

    private func rateLimited(_ reply: HTTPReply) -> HealthError {
        let reset = reply.header("X-Rate-Limit-Reset")?.split(separator: "/").first.flatMap { Double($0) }
        let wait = reset.map { max(1, Int(rounding: $0 - now().timeIntervalSince1970, .up)) }
        return .serverError("the server at \(location) is limiting requests: try again" + (wait.map { " in \($0) s" } ?? " later"))
    }

    private func pathEscape(_ segment: String) -> String { FormEncoding.escape(segment) }
}

/// A reply body kept as bytes, for answers whose key order matters (manifests).
private struct RawBody: Decodable {
    var data: Data
    init(data: Data) { self.data = data }
    init(from decoder: Decoder) throws { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "raw")) }
}


/// Holds the session and makes concurrent refreshes share one exchange: a refresh token may be single-use.
private actor SessionKeeper {
    private(set) var session: Session?
    private var refreshing: Task<Session, Error>?
    private let onChange: @Sendable (Session?) -> Void

    init(onChange: @escaping @Sendable (Session?) -> Void) { self.onChange = onChange }

    func replace(with session: Session?, notify: Bool = true) {
        self.session = session
        if notify { onChange(session) }
    }

    func refresh(from stale: Session, using exchange: @escaping @Sendable (Session) async throws -> Session) async throws -> Session {
        if let current = session, current.token != stale.token { return current }
        if let refreshing { return try await refreshing.value }
        let task = Task { try await exchange(stale) }
        refreshing = task
        defer { refreshing = nil }
        do {
            let fresh = try await task.value
            replace(with: fresh)
            return fresh
        } catch HealthError.sessionExpired {
            replace(with: nil)
            throw HealthError.sessionExpired
        }
    }
}
