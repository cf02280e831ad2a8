import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import RemoteClient
import SQLiteStorage
import Testing
import TestSupport

/// A day's readiness as Oura's `daily_readiness` collection gives it, read beside the nights: one reading a
/// day on the ring's activity tracker, kept as Oura scored it; reading it again adds nothing, and a score
/// Oura computed again for the same day replaces the one kept.
@Suite struct OuraReadinessTests {
    @Test func aDaysReadinessIsKeptOnceAndARescoredDayReplacesIt() async throws {
        let today = OuraEndToEndTests.today
        let yesterday = OuraExamples.Readiness(id: "b7d4e2a0-6c1f-4e59-9a3d-2f8c1e0b7a41", day: today.adding(days: -1).description, score: 82)
        let notScoredYet = OuraExamples.Readiness(id: "c3e9f1b2-8a7d-4c60-b5e2-9d1a4f6c8e03", day: today.description, score: nil)
        try await Self.withLinkedAlice(readiness: [yesterday, notScoredYet]) { world in
            let sync = OuraSync(links: world.store, services: UserServices(store: world.store), api: world.api, files: world.files)
            let linkID = try #require(try await sync.linkIDs().first)

            let first = await sync.fetch(linkID: linkID)
            #expect(first.problem == nil, "\(first.problem ?? "")")
            #expect(first.added == 3, "yesterday's score, and both days' temperature deviation; today's score is not computed yet")
            #expect(first.skipped == ["1 readiness day skipped (no score yet)"], "\(first.skipped)")
            let kept = try await world.readiness()
            #expect(kept.map(\.score) == [82])
            #expect(kept.first?.date == OuraTime.date("\(yesterday.day)T00:00:00+00:00"), "at the start of the day Oura scored")
            // The documents' `temperature_deviation` (-0.1 °C, Oura's documented example) as the night's skin
            // temperature change, one a day at the day's start.
            let deviations = try await world.store.readings(ReadingsQuery(field: Field.skinTemperatureChange, order: .asc), userID: world.alice.id)
            #expect(deviations.map { $0.data[Field.skinTemperatureChange]?.number } == [-0.1, -0.1])
            #expect(deviations.first?.date == OuraTime.date("\(yesterday.day)T00:00:00+00:00"))

            let again = await sync.fetch(linkID: linkID)
            #expect(again.added == 0 && again.changed == 0 && again.alreadyThere == 3, "\(again)")
            #expect(try await world.readiness().count == 1, "a day's readiness is stored once")

            var rescored = yesterday
            rescored.score = 79
            world.fixture.setReadiness(rescored)
            let third = await sync.fetch(linkID: linkID)
            #expect(third.added == 0 && third.changed == 1, "\(third)")
            #expect(try await world.readiness().map(\.score) == [79], "Oura's new score replaces the old")
        }
    }

    struct LinkedAlice {
        let store: LocalStore
        let alice: User
        let fixture: OuraFixture
        let api: OuraAPI
        let files: OuraLinkFiles

        /// alice's readiness readings, newest first: their time and score.
        func readiness() async throws -> [(date: Date, score: Double?)] {
            try await store.readings(ReadingsQuery(field: Field.readinessScore, order: .desc, limit: 100), userID: alice.id)
                .map { ($0.date, $0.data[Field.readinessScore]?.number) }
        }
    }

    /// alice, with an Oura link authorized as `hmon link add oura` leaves it, against a fixture with no nights.
    static func withLinkedAlice<T>(readiness: [OuraExamples.Readiness], _ body: (LinkedAlice) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-oura-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let fixture = try await OuraFixture.start(nights: [], readiness: readiness)
        defer { fixture.stop() }
        let api = OuraAPI(endpoints: OuraEndpoints(api: fixture.url, cloud: fixture.url), transport: PulledHTTPTransport(timeout: WithingsFixture.patientTimeout))
        let files = OuraLinkFiles(folder: folder.appendingPathComponent("oura"))
        let (id, secret) = try await store.createPushLink(kind: .oura, userID: alice.id, now: Date())
        let redirect = "http://127.0.0.1:9/oura/" + secret
        let page = api.endpoints.authorizeURL(clientID: OuraFixture.clientID, redirectURI: redirect, state: "s1")
        var link = OuraLink(linkID: id, userID: alice.id, clientID: OuraFixture.clientID, clientSecret: OuraFixture.clientSecret,
                            callbackPath: "/oura/" + secret, redirectURI: redirect, pendingState: nil, verificationToken: "v1")
        link.tokens = try await FixtureAuthorization.tokens(opening: page, api: api, clientID: link.clientID, clientSecret: link.clientSecret,
                                                            redirectURI: redirect)
        try files.save(link)
        return try await body(LinkedAlice(store: store, alice: alice, fixture: fixture, api: api, files: files))
    }
}
