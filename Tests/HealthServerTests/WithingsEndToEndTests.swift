import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import PostgresStorage
import SQLiteStorage
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A Withings scale read by a real `hmon serve`, linked with a real `hmon link add withings`, against the
/// Withings fixture server (the only fake: `WithingsFixture`), with the base URL the only difference.
@Suite(.heavy) struct WithingsEndToEndTests {
    /// The morning weigh-in of the decoding test: 72.35 kg, 21.8 % fat, 56.577 kg fat-free, 15.773 kg fat.
    static let morning = WithingsExamples.Group(grpid: 1001, date: 1_763_622_000, modified: 1_763_622_010,
                                                measures: [(72350, 1, -3), (2180, 6, -2), (56577, 5, -3), (15773, 8, -3)])

    @Test(arguments: StoreEngine.available)
    func aPastedCodeLinksTheScaleAndPollingStoresEachWeighInOnceThroughATokenRefresh(_ engine: StoreEngine) async throws {
        let world = try await WithingsWorld.start(groups: [Self.morning, WithingsExamples.documented], publicURL: false, engine: engine)
        defer { world.stop() }

        // The person opens the printed page; Withings sends the browser back with a code, which they paste.
        let linked = try await world.linkAdd { authorizeURL in
            let answer = try await RawHTTP.send("GET", authorizeURL)
            return try #require(answer.headers["Location"]) + "\n"
        }
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(linked.output.contains("Linked to Withings user 363"), "\(linked.output)")
        #expect(!linked.output.contains(WithingsFixture.clientSecret) && !linked.errors.contains(WithingsFixture.clientSecret))
        let file = try #require(try world.linkFile())
        #expect(file.tokens?.refreshToken == world.fixture.refreshToken)
        let mode = try FileManager.default.attributesOfItem(atPath: world.files.file(linkID: file.linkID).path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the client secret and tokens are readable by their owner only")

        let listed = try await ServeCommandTests.run(world.binary, ["link", "list", "--db", world.database], input: "",
                                                     environment: world.home.environment)
        #expect(listed.output.contains("withings  alice") && listed.output.contains("authorized"), "\(listed.output)")
        #expect(!listed.output.contains(file.clientSecret) && !listed.output.contains(file.callbackPath))

        let first = try await world.poll()
        #expect(first["added"] as? Int == 1, "\(first)")
        let skipped = ((first["links"] as? [[String: Any]])?.first?["skipped"] as? [String]) ?? []
        #expect(skipped.contains { $0.contains("1 ambiguous weigh-in skipped") }, "the documented example's attrib 1 group: \(skipped)")
        let stored = try await world.scaleReadings()
        #expect(stored.count == 1)
        #expect(stored.first?.ts == 1_763_622_000_000)
        #expect(stored.first?.data[Field.weight] == .number(72.35))
        #expect(stored.first?.data[Field.fatRatio] == .number(21.8))
        #expect(stored.first?.data[Field.fatFreeMass] == .number(56.577))
        #expect(stored.first?.data[Field.fatMassWeight] == .number(15.773))
        #expect(stored.first?.data[Field.source] == .text("Withings"))

        // Three hours later Withings refuses the access token; the person edits the weigh-in's note, so the
        // group comes back on the next fetch. hmon refreshes, keeps the rotated refresh token, adds nothing.
        world.fixture.expireAccessToken()
        world.fixture.add(WithingsExamples.Group(grpid: 1001, date: Self.morning.date, modified: Self.morning.modified + 500,
                                                 measures: [(72350, 1, -3), (2180, 6, -2), (56577, 5, -3), (15773, 8, -3)]))
        let second = try await world.poll()
        #expect(second["added"] as? Int == 0, "\(second)")
        #expect(world.fixture.refreshes == 1)
        #expect(try world.linkFile()?.tokens?.refreshToken == world.fixture.refreshToken, "the rotated refresh token is the one kept")
        #expect(try await world.scaleReadings().count == 1, "a measure group is stored once")
        #expect(world.fixture.subscriptions.isEmpty, "without --public-url nothing is subscribed")

        // Revoking the link deletes its secret and tokens.
        let revoked = try await ServeCommandTests.run(world.binary, ["link", "revoke", "withings", "--db", world.database],
                                                      input: "", environment: world.home.environment)
        #expect(revoked.status == 0, "\(revoked.errors)")
        #expect(try world.linkFile() == nil)
    }

    @Test func aNotificationPutsTheNewWeighInInTheStoreThroughTheAPI() async throws {
        let world = try await WithingsWorld.start(groups: [Self.morning], publicURL: true)
        defer { world.stop() }

        let linked = try await world.linkThroughTheCallback()
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(linked.output.contains("Linked: hmon serve received the authorization"), "\(linked.output)")

        // R on a dashboard: subscribes (Withings checks the callback with HEAD first). The morning is read by
        // then: the server fetched it right after the authorization, or this poll did.
        _ = try await world.poll()
        #expect(try await world.scaleReadings().map { $0.data[Field.weight] } == [.number(72.35)])
        let subscribed = try #require(world.fixture.subscriptions.first)
        #expect(subscribed.hasPrefix(world.address + "/withings/"))

        // The next morning's weigh-in: Withings notifies, hmon answers 200 and fetches it.
        world.fixture.add(WithingsExamples.Group(grpid: 1004, date: 1_763_708_400, measures: [(71800, 1, -3)]))
        #expect(try await world.fixture.notify(startdate: 1_763_708_400, enddate: 1_763_708_401) == [200])
        var latest: Double?
        try await Waiting.until {
            let answer = try await RawHTTP.send("GET", world.address + "/v1.1/messages/last?sdids=\(world.scale.id)&count=1", token: world.token)
            let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            let data = ((json?["data"] as? [[String: Any]])?.first?["data"] as? [String: Any])
            latest = data?[Field.weight] as? Double
            return latest == 71.8
        }
        #expect(latest == 71.8, "the notified weigh-in is served at /v1.1/messages/last")
        #expect(try await world.scaleReadings().count == 2)

        // Another secret is no link: Withings' check of it fails, a notification to it does nothing.
        #expect(try await RawHTTP.send("HEAD", world.address + "/withings/" + String(repeating: "0", count: 64)).status == 404)
        // The log names the routes, never the secret in them (nor a code or a token).
        let log = await world.stopAndReadLog()
        let secret = String(subscribed.split(separator: "/").last ?? "")
        #expect(log.contains("POST /withings/… 200"), "\(log)")
        #expect(!log.contains(secret) && !log.contains("code-") && !log.contains("access-"), "\(log)")
    }

    @Test func aRefusedCodeSaysHowToRetryAndLeavesNoLink() async throws {
        let world = try await WithingsWorld.start(groups: [Self.morning], publicURL: false)
        defer { world.stop() }
        let refused = try await world.linkAdd { _ in "code-that-withings-never-gave\n" }
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Withings refused requesttoken (status 503"), "\(refused.errors)")
        #expect(refused.errors.contains("run `hmon link add withings` again"))
        #expect(try await world.store.pushLinks().isEmpty, "the half-made link is revoked")
        #expect(try world.linkFile() == nil, "and its file with the client secret deleted")
    }
}

/// One test's world: a store with alice and her bathroom scale, the Withings fixture, a real `hmon serve`
/// over the store pointed at the fixture, and alice's access token for the API.
struct WithingsWorld {
    let home: CommandHome
    let binary: URL
    /// `--db`: the SQLite file's path or the PostgreSQL database's URL.
    let database: String
    let fixture: WithingsFixture
    private(set) var server: SpawnedProcess
    private(set) var address: String
    let store: any HealthStore
    let alice: User
    let scale: Device
    let token: String
    /// `hmon serve`'s arguments, for a restart.
    let arguments: [String]
    var files: WithingsLinkFiles { WithingsLinkFiles(folder: home.folder.appendingPathComponent("data/hmon/withings")) }

    /// `unreachableAPI`: the server is pointed at a port nothing listens on for Withings' API (its account
    /// pages stay the fixture's), as when Withings cannot be reached.
    static func start(groups: [WithingsExamples.Group], publicURL: Bool, engine: StoreEngine = .sqlite,
                      unreachableAPI: Bool = false) async throws -> WithingsWorld {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("withings")
        let database: String
        let store: any HealthStore
        if engine == .postgres {
            database = try await TestPostgres.newDatabase()
            store = try await PostgresStore.open(try PostgresLocation(database), passwordHasher: .fastForTests, maximumConnections: 2)
        } else {
            database = home.folder.appendingPathComponent("server.sqlite").path
            store = try LocalStore(url: URL(fileURLWithPath: database), passwordHasher: .fastForTests)
        }
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let scale = try await store.addDevice(name: "Bathroom scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: alice.id)
        let (token, _) = try await store.createToken(kind: .access, userID: alice.id, clientID: "hmon", scope: "read,write", ttl: 3600)
        let fixture = try await WithingsFixture.start(groups: groups)
        // A public URL must be known before the server starts: a port picked free just before.
        let port = publicURL ? try Self.freePort() : 0
        var arguments = ["serve", "--db", database, "--port", String(port), "--rate-limit", "off",
                         "--withings-api-url", unreachableAPI ? "http://127.0.0.1:\(try Self.freePort())" : fixture.url.absoluteString,
                         "--withings-poll-minutes", "1440"] + TestServerLimits.serveOptions
        if publicURL { arguments += ["--public-url", "http://127.0.0.1:\(port)"] }
        let (server, address) = try await serve(binary, arguments, home: home)
        return WithingsWorld(home: home, binary: binary, database: database, fixture: fixture, server: server, address: address,
                             store: store, alice: alice, scale: scale, token: token, arguments: arguments)
    }

    /// The `hmon serve` of `arguments` and the address it says it listens at.
    private static func serve(_ binary: URL, _ arguments: [String], home: CommandHome) async throws -> (SpawnedProcess, String) {
        let server = try SpawnedProcess(binary, arguments, environment: home.environment)
        guard let banner = await ServeCommandTests.firstLine(containing: "http://", in: server.output, orKill: server.pid),
              let address = banner.split(separator: " ").first(where: { $0.hasPrefix("http://") }) else {
            server.terminate()
            throw HealthError.serverUnreachable("hmon serve did not say where it listens")
        }
        return (server, String(address))
    }

    /// The same world with its server started again (the old one stopped first: see `stopAndReadLog`), as
    /// after a reboot: the new server reads each link when it starts.
    func restarted() async throws -> WithingsWorld {
        var world = self
        (world.server, world.address) = try await Self.serve(binary, arguments, home: home)
        return world
    }

    /// Whether the server still answers: `GET /v1.1/users/self` as alice is 200.
    func isServing() async -> Bool {
        (try? await RawHTTP.send("GET", address + "/v1.1/users/self", token: token))?.status == 200
    }

    /// Stops the server (SIGTERM) and returns what it logged.
    func stopAndReadLog() async -> String { await PulledLinkWorld.stopAndReadLog(server) }

    func stop() {
        server.terminate()
        fixture.stop()
        home.remove()
    }

    /// Runs `hmon link add withings` for alice; `answer` gets the printed Withings page and returns what the
    /// person types back.
    func linkAdd(_ answer: (String) async throws -> String) async throws -> (status: Int32, output: String, errors: String) {
        try await PulledLinkWorld.linkAdd(kind: "withings", binary: binary, database: database, home: home, address: address,
                                          clientID: WithingsFixture.clientID, clientSecret: WithingsFixture.clientSecret,
                                          sourceOptions: ["--withings-api-url", fixture.url.absoluteString,
                                                          "--withings-account-url", fixture.url.absoluteString],
                                          pageMarker: "/oauth2_user/authorize2", answer)
    }

    /// `hmon link add withings` where the browser lands on hmon serve, which trades the code itself; the
    /// command is then told with Enter.
    func linkThroughTheCallback() async throws -> (status: Int32, output: String, errors: String) {
        try await linkAdd(PulledLinkWorld.landOnTheServer)
    }

    /// `POST /v1.1/hmon/withings/poll` as alice: the dashboard's R.
    func poll() async throws -> [String: Any] { try await PulledLinkWorld.poll(kind: "withings", address: address, token: token) }

    func scaleReadings() async throws -> [Message] {
        try await store.lastMessages(deviceID: scale.id, userID: alice.id, count: 100)
    }

    /// alice's Withings link file, or nil when there is none.
    func linkFile() throws -> WithingsLink? { try PulledLinkWorld.linkFile(in: files) }

    /// A port free now (bound and released), for a server whose public URL must name it before it starts.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw HealthError.serverUnreachable("no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
