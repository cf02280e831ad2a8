import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HealthConnectors
import HealthCore
import HealthModel
import HealthServer
import Logging
import Synchronization
import TestSupport
import Testing
import SQLiteStorage
import PostgresStorage
import RemoteClient

/// A real server on a free loopback port over a store in a temporary folder, with two users (alice with
/// a scale, bob with a scale of his own). The store is an SQLite file, or with `engine: .postgres` a database
/// of its own on the test server (`TestPostgres`), so the contract's suites run on both. `body` runs against it; the server stops and the folder goes
/// away afterwards, whatever happens. The server has test-sized deadlines (`ConnectionLimits.forTests`, `TestServerLimits`)
/// unless the test sets its own, and the world holds a slot of `TestSlots.shared` while it runs.
struct ServerWorld: Sendable {
    let store: any HealthStore
    let server: RunningServer
    let clock: TestClock
    let alice: User
    let bob: User
    let aliceScale: Device
    let bobScale: Device
    /// The database's URL when the store is PostgreSQL, for the tests that write rows around the store's rules.
    let postgresURL: String?
    /// Where the server finds the signing secrets of push links (`hmon link add … --signing-secret-file`).
    let signingSecrets: PushLinkSigningSecrets

    static let password = "correct horse"
    static let withings = "dt29673f0481b4401bb73a622353b96150"

    var url: URL { server.url }
    /// The SQLite store, for the tests that work on its file.
    var sqlite: LocalStore { store as! LocalStore }

    /// `postgresURL`: with `engine: .postgres`, the database to use (a private cluster's, `PrivatePostgres`)
    /// instead of a new one on the shared test server.
    static func run<T>(engine: StoreEngine = .sqlite, postgresURL: String? = nil, rateLimit: RateLimit? = nil, accessTokenLifetime: TimeInterval = 3600,
                       limits: ConnectionLimits = .forTests, passwordHasher: PasswordHasher = .fastForTests,
                       storeVersionWindow: Duration = .milliseconds(50), trustedProxies: TrustedProxies = .none,
                       publicURL: URL? = nil, feedHeartbeat: Duration = TestServerLimits.feedHeartbeat, maxFeedsPerUser: Int = 128,
                       logger: Logger? = nil, servesViews: Bool = true, beforeEachRequest: (@Sendable (String) async -> Void)? = nil,
                       pulledSources: [any PulledSourceSettings] = [],
                       _ body: (ServerWorld) async throws -> T) async throws -> T {
        try await TestSlots.withSlot {
            try await run(engine: engine, givenPostgresURL: postgresURL, rateLimit: rateLimit, accessTokenLifetime: accessTokenLifetime, limits: limits,
                          passwordHasher: passwordHasher, storeVersionWindow: storeVersionWindow, trustedProxies: trustedProxies,
                          publicURL: publicURL, feedHeartbeat: feedHeartbeat, maxFeedsPerUser: maxFeedsPerUser, logger: logger,
                          servesViews: servesViews, beforeEachRequest: beforeEachRequest, pulledSources: pulledSources, holdingASlot: body)
        }
    }

    private static func run<T>(engine: StoreEngine, givenPostgresURL: String?, rateLimit: RateLimit?, accessTokenLifetime: TimeInterval, limits: ConnectionLimits,
                               passwordHasher: PasswordHasher, storeVersionWindow: Duration, trustedProxies: TrustedProxies,
                               publicURL: URL?, feedHeartbeat: Duration, maxFeedsPerUser: Int, logger: Logger?, servesViews: Bool,
                               beforeEachRequest: (@Sendable (String) async -> Void)?, pulledSources: [any PulledSourceSettings],
                               holdingASlot body: (ServerWorld) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let postgresURL: String?
        switch (engine, givenPostgresURL) {
        case (.postgres, let given?): postgresURL = given
        case (.postgres, nil): postgresURL = try await TestPostgres.newDatabase()
        case (.sqlite, _): postgresURL = nil
        }
        let store: any HealthStore = if let postgresURL {
            try await PostgresStore.open(try PostgresLocation(postgresURL), passwordHasher: passwordHasher, maximumConnections: 4)
        } else {
            try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: passwordHasher)
        }
        let alice = try await store.createUser(NewAccount(name: "alice", fullName: "Alice Example",
                                                          email: "alice@example.com", password: password))
        let bob = try await store.createUser(NewAccount(name: "bob", fullName: "Bob Example",
                                                        email: "bob@example.com", password: password))
        let aliceScale = try await store.addDevice(name: "Bathroom scale", typeID: withings, userID: alice.id)
        let bobScale = try await store.addDevice(name: "Bob's scale", typeID: withings, userID: bob.id)
        let clock = TestClock()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, rateLimit: rateLimit,
                                                accessTokenLifetime: accessTokenLifetime, limits: limits, clock: { clock.now })
        configuration.storeVersionWindow = storeVersionWindow
        configuration.trustedProxies = trustedProxies
        configuration.publicURL = publicURL
        configuration.feedHeartbeat = feedHeartbeat
        configuration.maxFeedsPerUser = maxFeedsPerUser
        configuration.servesViews = servesViews
        configuration.beforeEachRequest = beforeEachRequest
        configuration.pulledSources = pulledSources
        let signingSecrets = PushLinkSigningSecrets(folder: folder.appendingPathComponent("push-signing", isDirectory: true))
        configuration.pushSigningSecrets = signingSecrets
        let server = try await RunningServer.start(store: store, configuration: configuration, logger: logger)
        let world = ServerWorld(store: store, server: server, clock: clock, alice: alice, bob: bob,
                                aliceScale: aliceScale, bobScale: bobScale, postgresURL: postgresURL,
                                signingSecrets: signingSecrets)
        do {
            let result = try await body(world)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A second server over the same PostgreSQL database, as a second instance behind a load balancer, for
    /// `body`; stopped and its store closed afterwards, whatever happens.
    func withSecondServer<T>(_ body: (RunningServer) async throws -> T) async throws -> T {
        let url = try #require(postgresURL, "a second server shares a PostgreSQL database")
        let otherStore = try await PostgresStore.open(try PostgresLocation(url), maximumConnections: 2)
        defer { otherStore.close() }
        let other = try await RunningServer.start(store: otherStore, configuration: .forTests())
        do {
            let result = try await body(other)
            await other.stop()
            return result
        } catch {
            await other.stop()
            throw error
        }
    }

    /// A remote client of this server, sharing the world's clock.
    func client(flow: RemoteHealthService.SignInFlow = .authorizationCode) -> RemoteHealthService {
        // A write put off by the rate limit waits on the world's clock, which the server's limit counts by.
        RemoteHealthService(server: url, options: .init(flow: flow, timeout: TestServerLimits.clientTimeout), now: { clock.now },
                            sleep: { clock.advance(by: Double($0.components.seconds)) })
    }

    /// A client signed in as alice.
    func aliceClient(flow: RemoteHealthService.SignInFlow = .authorizationCode) async throws -> RemoteHealthService {
        let client = client(flow: flow)
        _ = try await client.signIn(name: "alice", password: Self.password)
        return client
    }

    /// An access token for a user, straight from the implicit flow.
    func token(for name: String = "alice") async throws -> String {
        let client = client(flow: .implicit)
        return try await client.signIn(name: name, password: Self.password).token
    }

    /// An access token from one `POST /authorize` and nothing else (no API call counted against it).
    func rawToken(for name: String = "alice") async throws -> String {
        let reply = try await postForm("/authorize", [
            ("client_id", "hmon"), ("response_type", "token"), ("redirect_uri", "hmon://signed-in"),
            ("username", name), ("password", Self.password),
        ])
        guard let location = reply.header("Location"), let range = location.range(of: "access_token=") else {
            throw JSONShapeError(text: "no token in the redirect (HTTP \(reply.status))")
        }
        return String(location[range.upperBound...])
    }

    // MARK: Raw HTTP

    func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await RawHTTP.send("GET", url.absoluteString + path, token: token, headers: headers)
    }

    func post(_ path: String, token: String? = nil, json: String, headers: [String: String] = [:]) async throws -> Reply {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await RawHTTP.send("POST", url.absoluteString + path, token: token, headers: headers, body: Data(json.utf8))
    }

    /// Any method, with a JSON body when given.
    func send(_ method: String, _ path: String, token: String? = nil, json: String? = nil) async throws -> Reply {
        try await RawHTTP.send(method, url.absoluteString + path, token: token,
                               headers: json == nil ? [:] : ["Content-Type": "application/json"], body: json.map { Data($0.utf8) })
    }

    func postForm(_ path: String, _ fields: [(String, String)], headers: [String: String] = [:]) async throws -> Reply {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        let body = fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
        return try await RawHTTP.send("POST", url.absoluteString + path, headers: headers, body: Data(body.utf8))
    }

    func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

/// An HTTP answer as a test reads it.
struct Reply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body as a JSON object.
    var json: [String: Any] {
        get throws {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw JSONShapeError(text: text)
            }
            return object
        }
    }

    /// `error.code` of the contract's envelope.
    var errorCode: Int? { ((try? json)?["error"] as? [String: Any])?["code"] as? Int }
    /// The message of an error answer: SAMI's envelope, or Exist's `{"detail": …}` on `/api/…`.
    var errorMessage: String? {
        ((try? json)?["error"] as? [String: Any])?["message"] as? String ?? (try? json)?["detail"] as? String
    }
}

struct JSONShapeError: Error, CustomStringConvertible {
    var text: String
    var description: String { "not a JSON object: \(text.prefix(300))" }
}

/// Plain URLSession requests that never follow redirects, to look at the server's answers as they are.
enum RawHTTP {
    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }

    private static let delegate = NoRedirects()
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        // Patient: the servers these tests talk to answer from this process, whose task pool a full parallel
        // `swift test` on two cores keeps busy for long stretches (tmux walks, child processes); at 10 s, requests
        // to a healthy server timed out there. A server that truly hangs still fails its test, later.
        configuration.timeoutIntervalForRequest = 300
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }()

    static func send(_ method: String, _ url: String, token: String? = nil, headers: [String: String] = [:],
                     body: Data? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request, delegate: delegate)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }
}

/// A clock the test moves forward (token expiry) instead of waiting.
final class TestClock: Sendable {
    private let current = Mutex(Date())
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
