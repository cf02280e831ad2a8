import Foundation
import HealthCore
import HealthModel
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
            let first = try await Views.get(world, path, token: token)
            #expect(first.status == 200)
            let again = try await Views.get(world, path, token: token)
            #expect(again.body == first.body && again.etag == first.etag)
            #expect(try await Views.get(world, path, token: token, ifNoneMatch: first.etag).status == 304)

            // A weigh-in written beside the server, as a background poll or `hmon add` writes it.
            let alice = LocalHealthService(store: world.store, userID: world.alice.id)
            try await alice.post(NewMessage(sdid: world.aliceScale.id, ts: now.millisecondsSince1970 - 1_000, data: [Field.weight: .number(66.25)]))
            let changed = try await Views.get(world, path, token: token, ifNoneMatch: first.etag)
            #expect(changed.status == 200 && changed.etag != first.etag)
            #expect(String(decoding: changed.body, as: UTF8.self).contains("66.25"))

            // bob asking alice's exact request gets his own answer, not the one kept for her.
            let bobs = try await Views.get(world, path, token: try await world.token(for: "bob"))
            #expect(bobs.status == 200 && bobs.body != changed.body)
            let text = String(decoding: bobs.body, as: UTF8.self)
            #expect(!text.contains("66.25") && !text.contains(world.aliceScale.id), "\(text.prefix(300))")
        }
    }
}

/// A count several tasks may add to.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
