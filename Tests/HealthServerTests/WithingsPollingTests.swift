import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import HealthServer
import RemoteClient
import SQLiteStorage
import Testing
import TestSupport

/// Without a public URL the server reads each Withings link on its own, every poll interval: here an
/// interval of 50 ms (in use, `--withings-poll-minutes`), so the test waits on the server, not on a clock.
@Suite(.heavy) struct WithingsPollingTests {
    @Test func withoutAPublicURLTheServerReadsEachLinkAtItsIntervalAndSubscribesNothing() async throws {
        try await Self.withLinkedAlice { world in
            let (store, alice, fixture) = (world.store, world.alice, world.fixture)
            var configuration = ServerConfiguration.forTests()
            configuration.pulledSources = [PulledSettings(api: world.api, files: world.files, pollInterval: .milliseconds(50))]
            let server = try await RunningServer.start(store: store, configuration: configuration)

            // The first read, at start; then a weigh-in nobody notifies is read at a later interval.
            try await Self.waitForWeights([72.35], of: alice.id, in: store)
            fixture.add(WithingsExamples.Group(grpid: 1004, date: 1_763_708_400, measures: [(71800, 1, -3)]))
            try await Self.waitForWeights([71.8, 72.35], of: alice.id, in: store)
            await server.stop()

            #expect(fixture.subscriptions.isEmpty, "no public URL: nothing to subscribe")
            #expect(fixture.measureCalls >= 2, "read once per interval, with lastupdate")
            let scales = try await store.devices(userID: alice.id)
            #expect(scales.map(\.name) == ["Scale"], "alice had no scale: the weigh-ins made one, as an import does")
        }
    }

    @Test func readsAskedAtOnceTakeTurnsSoTheRotatingRefreshTokenIsUsedOnce() async throws {
        try await Self.withLinkedAlice { world in
            let (alice, fixture, files) = (world.alice, world.fixture, world.files)
            let sync = WithingsSync(links: world.store, services: UserServices(store: world.store), api: world.api, files: files)

            // A poll, a notification and an R at the same moment, with an access token Withings no longer takes.
            fixture.expireAccessToken()
            async let poll = sync.fetch(userID: nil)
            async let notification = sync.fetch(userID: alice.id)
            async let press = sync.fetch(userID: alice.id)
            let outcomes = try await [poll, notification, press].flatMap { $0 }
            #expect(outcomes.allSatisfy { $0.problem == nil }, "\(outcomes.compactMap(\.problem))")
            #expect(fixture.refreshes == 1, "one refresh; a second with the same refresh token would be refused")
            #expect(outcomes.map(\.added).reduce(0, +) == 1, "the morning stored once")
            #expect(try files.load(linkID: try #require(outcomes.first?.linkID))?.tokens?.refreshToken == fixture.refreshToken)
        }
    }

    @Test func aLongHistoryIsReadPageByPage() async throws {
        let groups = (0..<5).map { WithingsExamples.Group(grpid: 2000 + Int64($0), date: 1_763_622_000 + Int64($0) * 86_400,
                                                          measures: [(72000 - Int64($0) * 100, 1, -3)]) }
        let fixture = try await WithingsFixture.start(groups: groups)
        defer { fixture.stop() }
        fixture.pageMeasures(by: 2)
        let api = WithingsAPI(endpoints: WithingsEndpoints(api: fixture.url, account: fixture.url), transport: PulledHTTPTransport(timeout: WithingsFixture.patientTimeout))
        let page = api.endpoints.authorizeURL(clientID: WithingsFixture.clientID, redirectURI: "http://127.0.0.1:9/withings/x", state: "s")
        let tokens = try await FixtureAuthorization.tokens(opening: page, api: api, clientID: WithingsFixture.clientID,
                                                           clientSecret: WithingsFixture.clientSecret, redirectURI: "http://127.0.0.1:9/withings/x")

        let fetched = try await api.measureGroups(accessToken: tokens.accessToken, lastUpdate: 0)
        #expect(fetched.groups.map(\.grpid) == [2000, 2001, 2002, 2003, 2004], "three pages of 2, 2 and 1")
        #expect(fixture.measureCalls == 3)
        // 72000 - 4 × 100 = 71600 × 10^-3 kg.
        #expect(WithingsWeighIns(fetched.groups, now: Date()).weighIns.last?.data[Field.weight] == .number(71.6))
    }

    /// Waits (up to 400 looks) until the user's weights, newest first, are `expected`.
    static func waitForWeights(_ expected: [Double], of userID: String, in store: LocalStore) async throws {
        var weights: [Double] = []
        let arrived = try await Waiting.until {
            weights = try await store.weightReadings(userID: userID, from: 0, to: 4_000_000_000_000).sorted { $0.date > $1.date }.map(\.kg)
            return weights == expected
        }
        #expect(arrived, "the weights are \(weights), not \(expected)")
    }

    /// Alice's store in a temporary folder, a Withings fixture with her morning weigh-in, and her link authorized
    /// against it, for `body`; all gone afterwards, whatever happens.
    struct LinkedAlice {
        let store: LocalStore
        let alice: User
        let fixture: WithingsFixture
        let api: WithingsAPI
        let files: WithingsLinkFiles
    }

    static func withLinkedAlice<T>(_ body: (LinkedAlice) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-withings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let fixture = try await WithingsFixture.start(groups: [WithingsEndToEndTests.morning])
        defer { fixture.stop() }
        let (api, files) = try await authorizedLink(for: alice, in: store, fixture: fixture, folder: folder)
        return try await body(LinkedAlice(store: store, alice: alice, fixture: fixture, api: api, files: files))
    }

    /// A link as `hmon link add withings` leaves it once authorized, with the fixture's tokens.
    static func authorizedLink(for user: User, in store: LocalStore, fixture: WithingsFixture, folder: URL) async throws
        -> (api: WithingsAPI, files: WithingsLinkFiles) {
        let api = WithingsAPI(endpoints: WithingsEndpoints(api: fixture.url, account: fixture.url), transport: PulledHTTPTransport(timeout: WithingsFixture.patientTimeout))
        let files = WithingsLinkFiles(folder: folder.appendingPathComponent("withings"))
        let (id, secret) = try await store.createPushLink(kind: .withings, userID: user.id, now: Date())
        let redirect = "http://127.0.0.1:9/withings/" + secret
        let page = api.endpoints.authorizeURL(clientID: WithingsFixture.clientID, redirectURI: redirect, state: "s1")
        var link = WithingsLink(linkID: id, userID: user.id, clientID: WithingsFixture.clientID, clientSecret: WithingsFixture.clientSecret,
                                callbackPath: "/withings/" + secret, redirectURI: redirect, pendingState: nil)
        link.tokens = try await FixtureAuthorization.tokens(opening: page, api: api, clientID: link.clientID, clientSecret: link.clientSecret,
                                                            redirectURI: redirect)
        try files.save(link)
        return (api, files)
    }
}
