import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import RemoteClient
import SQLiteStorage
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An Oura ring read by a real `hmon serve`, linked with a real `hmon link add oura`, against the Oura
/// fixture server (the only fake: `OuraFixture`), with the base URL the only difference.
@Suite(.heavy) struct OuraEndToEndTests {
    static var today: Day {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return Day(Date(), in: utc)
    }

    /// Last night, ending yesterday at 07:15 (UTC+01:00): 435 min asleep, 480 in bed, 90 deep, 105 REM,
    /// 240 light, 45 awake; HRV 48 ms, lowest heart rate 52.
    static var lastNight: OuraExamples.Night { .night("8f9a5221-639e-4a68-ab5c-1c7f0b1e9a11", endingOn: today.adding(days: -1)) }

    /// A rest-mode period the same day: Oura's `rest`, not sleep.
    static var restPeriod: OuraExamples.Night {
        var rest = OuraExamples.Night.night("0c41d2e7-rest-4b8e-9d3f-3a1f7e6b2c90", endingOn: today.adding(days: -1))
        rest.type = "rest"
        rest.bedtimeStart = "\(today.adding(days: -1))T13:00:00+01:00"
        rest.bedtimeEnd = "\(today.adding(days: -1))T14:00:00+01:00"
        return rest
    }

    @Test func aPastedCodeLinksTheRingAndItsNightShowsHRVAndSleepOnceThroughATokenRefresh() async throws {
        let world = try await OuraWorld.start(nights: [Self.lastNight, Self.restPeriod], publicURL: false)
        defer { world.stop() }

        // The person opens the printed page; Oura sends the browser back with a code, which they paste.
        let linked = try await world.linkAdd { authorizeURL in
            let answer = try await RawHTTP.send("GET", authorizeURL)
            return try #require(answer.headers["Location"]) + "\n"
        }
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(linked.output.contains("Linked to Oura"), "\(linked.output)")
        #expect(!linked.output.contains(OuraFixture.clientSecret) && !linked.errors.contains(OuraFixture.clientSecret))
        let file = try #require(try world.linkFile())
        #expect(file.tokens?.refreshToken == world.fixture.refreshToken)
        let mode = try FileManager.default.attributesOfItem(atPath: world.files.file(linkID: file.linkID).path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the client secret and tokens are readable by their owner only")
        let listed = try await world.hmon(["link", "list"])
        #expect(listed.output.contains("oura  alice") && listed.output.contains("authorized"), "\(listed.output)")
        #expect(!listed.output.contains(file.clientSecret) && !listed.output.contains(file.callbackPath))

        // Oura answers a document a page: the pull follows next_token to the end.
        world.fixture.pageSleep(by: 1)
        let first = try await world.poll()
        #expect(first["added"] as? Int == 4, "the night, its HRV, its lowest heart rate and its breathing rate: \(first)")
        #expect(world.fixture.sleepCalls == 2, "two pages")
        let skipped = ((first["links"] as? [[String: Any]])?.first?["skipped"] as? [String]) ?? []
        #expect(skipped == ["1 sleep period skipped (type rest: rest mode, not sleep)"], "\(skipped)")

        // The night shows as hmon's commands list it: HRV from the ring, and the sleep with its stages.
        let hrv = try await world.hmon(["hrv", "list"])
        let hrvRow = try #require(hrv.output.split(separator: "\n").first { $0.contains("oura") }, "\(hrv.output)")
        #expect(hrvRow.contains("48.0"), "\(hrvRow)")
        let sleep = try await world.readingValues(field: Field.sleepMinutes)
        #expect(sleep.count == 1)
        #expect(sleep.first?[Field.sleepMinutes] == 435)
        #expect(sleep.first?[Field.inBedMinutes] == 480)
        #expect(sleep.first?[Field.deepSleepMinutes] == 90)
        #expect(sleep.first?[Field.remSleepMinutes] == 105)
        #expect(sleep.first?[Field.coreSleepMinutes] == 240)
        #expect(sleep.first?[Field.awakeMinutes] == 45)
        #expect(try await world.readingValues(field: Field.restingHeartRate).first?[Field.restingHeartRate] == 52)
        let breathing = try await world.readingValues(field: Field.respiratoryRate)
        #expect(breathing.first?[Field.respiratoryRate] == 14.9, "Oura's `average_breath` of 14.875 breaths a minute, to the kind's tenth: \(breathing)")
        let night = try #require(try await world.readings(field: Field.sleepMinutes).first)
        #expect(Day(night.date, in: world.plusOne) == Self.today.adding(days: -1), "a night belongs to the day it ends")

        // A day later Oura refuses the access token; the pull reads the same night again. hmon refreshes,
        // keeps the replaced refresh token, adds nothing.
        world.fixture.expireAccessToken()
        let second = try await world.poll()
        #expect(second["added"] as? Int == 0, "\(second)")
        #expect((second["links"] as? [[String: Any]])?.first?["alreadyThere"] as? Int == 4, "\(second)")
        #expect(world.fixture.refreshes == 1)
        #expect(try world.linkFile()?.tokens?.refreshToken == world.fixture.refreshToken, "the new refresh token is the one kept")
        #expect(try await world.readings(field: Field.sleepMinutes).count == 1, "a night is stored once")
        #expect(world.fixture.subscriptions.isEmpty, "without --public-url nothing is subscribed")

        // Revoking the link deletes its secret and tokens.
        let revoked = try await world.hmon(["link", "revoke", "oura"])
        #expect(revoked.status == 0, "\(revoked.errors)")
        #expect(try world.linkFile() == nil)
    }

    @Test func subscriptionsAreVerifiedAndRenewedAndANotificationBringsTheNewNight() async throws {
        let world = try await OuraWorld.start(nights: [Self.lastNight], publicURL: true)
        defer { world.stop() }

        let linked = try await world.linkThroughTheRedirect()
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(linked.output.contains("Linked: hmon serve received the authorization"), "\(linked.output)")

        // Once authorized, the server subscribes the link (Oura checks the callback with its challenge first).
        let subscribed = await Waiting.until { world.fixture.subscriptions.count == 4 }
        #expect(subscribed, "\(world.fixture.subscriptions)")
        let subscriptions = world.fixture.subscriptions
        #expect(subscriptions.map { "\($0.eventType) \($0.dataType)" }.sorted()
                == ["create daily_readiness", "create sleep", "update daily_readiness", "update sleep"],
                "a sleep or readiness document made or changed")
        #expect(subscriptions.allSatisfy { $0.callback.hasPrefix(world.address + "/oura/") })
        #expect(world.fixture.renewals == 0)

        // Oura's subscriptions expire within a day: the next round (R on a dashboard) renews all four before it
        // reads; once they are renewed for months, the round after renews none.
        _ = try await world.poll()
        #expect(world.fixture.renewals == 4)
        #expect(world.fixture.subscriptions.count == 4, "renewed, not made again")
        #expect(try await world.readings(field: Field.sleepMinutes).count == 1)
        _ = try await world.poll()
        #expect(world.fixture.renewals == 4)

        // This morning's night: Oura notifies, hmon answers 200 and reads it.
        let thisMorning = OuraExamples.Night.night("2b7e41c3-0a55-4f0e-b1c9-7d2e8f3a6b14", endingOn: Self.today)
        world.fixture.add(thisMorning)
        #expect(try await world.fixture.notify(objectID: thisMorning.id) == [200])
        let arrived = await Waiting.until { (try? await world.readings(field: Field.sleepMinutes).count) == 2 }
        #expect(arrived, "the notified night is stored")
        #expect(try await world.readings(field: Field.rmssd).count == 2)

        // Oura scores the day later than the night arrived: its readiness notification has the score read.
        let scored = OuraExamples.Readiness(id: "e4a1c7d2-9b3f-4a08-8c6e-1d5f2b7a9c30", day: Self.today.description, score: 77)
        world.fixture.setReadiness(scored)
        #expect(try await world.fixture.notify(objectID: scored.id, dataType: "daily_readiness") == [200])
        let score = await Waiting.until { (try? await world.readings(field: Field.readinessScore).count) == 1 }
        #expect(score, "the notified readiness is stored")

        // A night Oura has not notified (yet): only R on a dashboard, which asks the server to read the links, brings it.
        world.fixture.add(OuraExamples.Night.night("5d0c8b2e-1f3a-4e6b-9a7c-2e4f6a8b0c1d", endingOn: Self.today.adding(days: -2)))
        let dashboard = RemoteHealthService(server: URL(string: world.address)!, options: .init(timeout: 300))
        _ = try await dashboard.signIn(name: "alice", password: "correct horse")
        #expect(try await dashboard.pollLinkedSources() == 4, "the night, its HRV, its lowest heart rate and its breathing rate")
        #expect(try await world.readings(field: Field.sleepMinutes).count == 3)

        // Another secret is no link: Oura's check of it fails, a notification to it does nothing.
        #expect(try await RawHTTP.send("GET", world.address + "/oura/" + String(repeating: "0", count: 64)
                                       + "?verification_token=x&challenge=y").status == 404)
        let file = try #require(try world.linkFile())
        #expect(try await RawHTTP.send("GET", world.address + file.callbackPath + "?verification_token=wrong&challenge=y").status == 401)
        // The log names the routes, never the secret in them (nor a code, a token or the verification token).
        let log = await world.stopAndReadLog()
        let secret = String(file.callbackPath.split(separator: "/").last ?? "")
        #expect(log.contains("POST /oura/… 200") && log.contains("GET /oura/… 200"), "\(log)")
        #expect(!log.contains(secret) && !log.contains("code-") && !log.contains("oura-access-") && !log.contains(file.verificationToken), "\(log)")
    }

    @Test func anAnswerNotAsDocumentedOrARevokedAuthorizationSaysSoAndStoresNothing() async throws {
        let world = try await OuraWorld.start(nights: [Self.lastNight], publicURL: false)
        defer { world.stop() }
        let linked = try await world.linkAdd { authorizeURL in
            try #require(try await RawHTTP.send("GET", authorizeURL).headers["Location"]) + "\n"
        }
        #expect(linked.status == 0, "\(linked.errors)")

        world.fixture.answerBrokenJSON(true)
        let broken = try await world.poll()
        let brokenProblem = (broken["links"] as? [[String: Any]])?.first?["problem"] as? String ?? ""
        #expect(brokenProblem == "Oura's answer for the sleep documents cannot be read (not JSON)", "\(brokenProblem)")
        #expect(try await world.readings(field: Field.sleepMinutes).isEmpty, "nothing half-written")

        world.fixture.answerBrokenJSON(false)
        world.fixture.revokeAuthorization()
        let revoked = try await world.poll()
        let problem = (revoked["links"] as? [[String: Any]])?.first?["problem"] as? String ?? ""
        #expect(problem.contains("Oura no longer accepts its tokens") && problem.contains("make the link again with `hmon link add oura`"), "\(problem)")
        #expect(!problem.contains("oura-access-") && !problem.contains("oura-refresh-"), "\(problem)")
        #expect(try await world.readings(field: Field.sleepMinutes).isEmpty)
        #expect(await world.isServing())
    }

    @Test func aRefusedCodeSaysHowToRetryAndLeavesNoLink() async throws {
        let world = try await OuraWorld.start(nights: [Self.lastNight], publicURL: false)
        defer { world.stop() }
        let refused = try await world.linkAdd { _ in "code-that-oura-never-gave\n" }
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Oura refused the token request (HTTP 400: invalid_grant)"), "\(refused.errors)")
        #expect(refused.errors.contains("run `hmon link add oura` again"))
        #expect(try await world.store.pushLinks().isEmpty, "the half-made link is revoked")
        #expect(try world.linkFile() == nil, "and its file with the client secret deleted")
    }
}

/// One test's world: a store with alice, the Oura fixture, a real `hmon serve` over the store pointed at
/// the fixture, and alice's access token for the API.
struct OuraWorld {
    let home: CommandHome
    let binary: URL
    let database: String
    let fixture: OuraFixture
    let server: SpawnedProcess
    let address: String
    let store: any HealthStore
    let alice: User
    let token: String
    var files: OuraLinkFiles { OuraLinkFiles(folder: home.folder.appendingPathComponent("data/hmon/oura")) }
    /// The fixture's nights are written at UTC+01:00.
    var plusOne: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 3600)!
        return calendar
    }

    static func start(nights: [OuraExamples.Night], publicURL: Bool) async throws -> OuraWorld {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("oura")
        let database = home.folder.appendingPathComponent("server.sqlite").path
        let store = try LocalStore(url: URL(fileURLWithPath: database), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let (token, _) = try await store.createToken(kind: .access, userID: alice.id, clientID: "hmon", scope: "read,write", ttl: 3600)
        let fixture = try await OuraFixture.start(nights: nights)
        // A public URL must be known before the server starts: a port picked free just before.
        let port = publicURL ? try WithingsWorld.freePort() : 0
        var arguments = ["serve", "--db", database, "--port", String(port), "--rate-limit", "off",
                         "--oura-api-url", fixture.url.absoluteString, "--oura-poll-minutes", "1440"] + TestServerLimits.serveOptions
        if publicURL { arguments += ["--public-url", "http://127.0.0.1:\(port)"] }
        let server = try SpawnedProcess(binary, arguments, environment: home.environment)
        guard let banner = await ServeCommandTests.firstLine(containing: "http://", in: server.output, orKill: server.pid),
              let address = banner.split(separator: " ").first(where: { $0.hasPrefix("http://") }) else {
            server.terminate()
            throw HealthError.serverUnreachable("hmon serve did not say where it listens")
        }
        return OuraWorld(home: home, binary: binary, database: database, fixture: fixture, server: server, address: String(address),
                         store: store, alice: alice, token: token)
    }

    func stop() {
        server.terminate()
        fixture.stop()
        home.remove()
    }

    /// Stops the server (SIGTERM) and returns what it logged.
    func stopAndReadLog() async -> String { await PulledLinkWorld.stopAndReadLog(server) }

    func isServing() async -> Bool {
        (try? await RawHTTP.send("GET", address + "/v1.1/users/self", token: token))?.status == 200
    }

    /// `hmon ARGUMENTS --db DATABASE` as alice's machine runs it.
    func hmon(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await ServeCommandTests.run(binary, arguments + ["--db", database], input: "", environment: home.environment)
    }

    /// Runs `hmon link add oura` for alice; `answer` gets the printed Oura page and returns what the person types back.
    func linkAdd(_ answer: (String) async throws -> String) async throws -> (status: Int32, output: String, errors: String) {
        try await PulledLinkWorld.linkAdd(kind: "oura", binary: binary, database: database, home: home, address: address,
                                          clientID: OuraFixture.clientID, clientSecret: OuraFixture.clientSecret,
                                          sourceOptions: ["--oura-api-url", fixture.url.absoluteString, "--oura-cloud-url", fixture.url.absoluteString],
                                          pageMarker: "/oauth/authorize", answer)
    }

    /// `hmon link add oura` where the browser lands on hmon serve, which trades the code itself; the command is then told with Enter.
    func linkThroughTheRedirect() async throws -> (status: Int32, output: String, errors: String) {
        try await linkAdd(PulledLinkWorld.landOnTheServer)
    }

    /// `POST /v1.1/hmon/oura/poll` as alice.
    func poll() async throws -> [String: Any] { try await PulledLinkWorld.poll(kind: "oura", address: address, token: token) }

    /// alice's readings carrying `field`, newest first, from the store.
    func readings(field: String) async throws -> [Message] {
        try await store.readings(ReadingsQuery(field: field, order: .desc, limit: 100), userID: alice.id)
    }

    /// `hmon reading list --field FIELD --json`: each reading's figures as the command prints them.
    func readingValues(field: String) async throws -> [[String: Double]] {
        let listed = try await hmon(["reading", "list", "--field", field, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.output)")
        return rows.compactMap { $0["values"] as? [String: Any] }.map { values in
            values.compactMapValues { value -> Double? in
                switch value {
                case let number as Int: Double(number)
                case let number as Double: number
                case let number as NSNumber: number.doubleValue
                default: nil
                }
            }
        }
    }

    /// alice's Oura link file, or nil when there is none.
    func linkFile() throws -> OuraLink? { try PulledLinkWorld.linkFile(in: files) }
}
