import Foundation
import HealthCore
import HealthModel
import SAMIContract
@testable import HealthServer
import TestSupport
import Synchronization
import Testing

/// The views' answers kept while the store is unchanged (`ViewAnswers`): asked again, a screen is the same
/// answer without computing it; any commit, including one the server did not answer (a background poll, the
/// command line), is seen by the very next request; and one user's kept answer is never another's.
@Suite struct ViewAnswersTests {
    typealias Views = ServerViewsTests

    @Test func anAnswerIsComputedOncePerChangeTokenAndOldTokensGoFirstWhenFull() async throws {
        let answers = ViewAnswers(capacityBytes: 10)
        let computed = Counter()
        func ask(_ key: String, token: Int64, body: String) async throws -> String {
            let answer = try await answers.answer(for: key, token: token) {
                computed.add()
                return ViewAnswers.Answer(body: Data(body.utf8), tag: body)
            }
            return String(decoding: answer.body, as: UTF8.self)
        }
        #expect(try await ask("alice weights", token: 1, body: "w1") == "w1")
        #expect(try await ask("alice weights", token: 1, body: "other") == "w1", "kept while the token is the same")
        #expect(computed.value == 1)
        #expect(try await ask("alice weights", token: 2, body: "w2") == "w2", "a new token computes again")
        #expect(computed.value == 2 && answers.count == 1)
        #expect(try await ask("bob weights", token: 2, body: "b2") == "b2")
        #expect(try await ask("alice hrv", token: 3, body: "h3-long") == "h3-long", "over 10 bytes: token 2's answers go")
        #expect(answers.count == 1)
        #expect(try await ask("alice huge", token: 3, body: String(repeating: "x", count: 11)).count == 11, "too big to keep")
        #expect(answers.count == 0)
    }

    @Test func requestsForAnAnswerBeingComputedWaitForItInsteadOfComputingItAgain() async throws {
        let answers = ViewAnswers()
        let computed = Counter()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let compute: @Sendable () async throws -> ViewAnswers.Answer = {
            computed.add()
            for await _ in gate { break }
            return ViewAnswers.Answer(body: Data("screen".utf8), tag: "t")
        }
        let first = Task { try await answers.answer(for: "alice overview", token: 7, compute: compute) }
        #expect(await Waiting.until { computed.value == 1 })
        let second = Task { try await answers.answer(for: "alice overview", token: 7, compute: compute) }
        #expect(await Waiting.until { answers.waited == 1 })
        open.finish()
        #expect(try await first.value.body == Data("screen".utf8))
        #expect(try await second.value.body == Data("screen".utf8))
        #expect(computed.value == 1 && answers.count == 1)
    }

    @Test(arguments: StoreEngine.available)
    func aCommitTheServerDidNotAnswerIsSeenByTheNextRequest(_ engine: StoreEngine) async throws {
        // The server's 50 ms change-token window stretched to an hour: the kept answers must not rely on it.
        try await ServerWorld.run(engine: engine, storeVersionWindow: .seconds(3600)) { world in
            let now = world.clock.now
            try await Views.fill(world, calendar: Views.berlin, now: now)
            let token = try await world.token()
            let today = Day(now, in: Views.berlin)
            let path = "/v1.1/hmon/views/screens/weights?from=\(today.adding(days: -6))&to=\(today)&tz=Europe/Berlin"
                + "&devices=\(world.aliceScale.id)&count=5"
            // The overview keeps all but its energy, which is computed for each `now`.
            let overview = "/v1.1/hmon/views/screens/overview?from=\(today.adding(days: -29))&to=\(today)&tz=Europe/Berlin"
            var before: [String: ServerViewsTests.Answer] = [:]
            for (place, url) in [("weights", path), ("overview", overview + "&now=\(now.millisecondsSince1970)")] {
                let first = try await Views.get(world, url, token: token)
                #expect(first.status == 200, "\(place)")
                let again = try await Views.get(world, url, token: token)
                #expect(again.body == first.body && again.etag == first.etag, "\(place)")
                #expect(try await Views.get(world, url, token: token, ifNoneMatch: first.etag).status == 304, "\(place)")
                before[place] = first
            }
            let later = try await Views.get(world, overview + "&now=\(now.millisecondsSince1970 + 60_000)", token: token)
            #expect(later.status == 200 && later.etag != before["overview"]?.etag, "a minute later, today's resting energy is more")

            // A weigh-in written beside the server, as a background poll or `hmon add` writes it.
            let alice = LocalHealthService(store: world.store, userID: world.alice.id)
            try await alice.post(NewMessage(sdid: world.aliceScale.id, ts: now.millisecondsSince1970 - 1_000, data: [Field.weight: .number(66.25)]))
            for (place, url) in [("weights", path), ("overview", overview + "&now=\(now.millisecondsSince1970)")] {
                let first = try #require(before[place])
                let changed = try await Views.get(world, url, token: token, ifNoneMatch: first.etag)
                #expect(changed.status == 200 && changed.etag != first.etag, "\(place)")
                if place == "weights" { #expect(String(decoding: changed.body, as: UTF8.self).contains("66.25")) }
            }
            let changed = try await Views.get(world, path, token: token)

            // bob asking alice's exact request gets his own answer, not the one kept for her.
            let bobs = try await Views.get(world, path, token: try await world.token(for: "bob"))
            #expect(bobs.status == 200 && bobs.body != changed.body)
            let text = String(decoding: bobs.body, as: UTF8.self)
            #expect(!text.contains("66.25") && !text.contains(world.aliceScale.id), "\(text.prefix(300))")
        }
    }

    /// The overview joined from its kept part and its energy is, byte for byte, the whole view encoded: the
    /// same answer and ETag as if it had been computed in one piece (and a key added to the view fails here).
    @Test func theOverviewJoinedFromItsPartsIsTheWholeViewsBytes() async throws {
        try await ServerWorld.run { world in
            let now = Views.wholeMilliseconds(world.clock.now)
            try await Views.fill(world, calendar: Views.berlin, now: now)
            let today = Day(now, in: Views.berlin)
            let ask = OverviewScreenData.Ask(days: today.adding(days: -29)...today, now: now, calendar: Views.berlin)
            let view = HMonViews.OverviewScreenView(try await LocalHealthService(store: world.store, userID: world.alice.id).overviewScreen(ask))
            #expect(!view.totals.days.isEmpty && !view.energy.days.isEmpty)
            let encoder = OverviewAnswer.encoder
            let joined = OverviewAnswer.join(energy: try encoder.encode(view.energy),
                                             steady: try encoder.encode(OverviewAnswer.Steady(profile: view.profile, totals: view.totals,
                                                                                               weights: view.weights)))
            let whole = try encoder.encode(SAMI.DataEnvelope(data: view))
            #expect(joined.body == whole, "\(String(decoding: joined.body.prefix(200), as: UTF8.self))")
            #expect(joined.tag == ViewRoutes.etag(of: whole))
        }
    }
}

/// A count several tasks may add to.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
