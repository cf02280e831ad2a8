import Foundation
import HealthCore
import HealthModel
import Testing
import TestSupport

/// What Withings says is its word, not a fact: a measure group dated beyond what milliseconds can hold (or
/// in 1970) is skipped and reported by a real `hmon serve`, which stays up through a poll, a notification
/// and a restart (a server reads each link when it starts), and keeps the good groups around it.
@Suite struct WithingsImpossibleDateTests {
    /// One second past the last that milliseconds since 1970 hold in an `Int64` (9,223,372,036,854,775).
    static let pastMilliseconds: Int64 = 9_223_372_036_854_776

    static func impossible(_ grpid: Int64, modified: Int64) -> WithingsExamples.Group {
        WithingsExamples.Group(grpid: grpid, date: pastMilliseconds, modified: modified, measures: [(70000, 1, -3)])
    }

    static func good(_ grpid: Int64, date: Int64) -> WithingsExamples.Group {
        WithingsExamples.Group(grpid: grpid, date: date, modified: date + 10, measures: [(71000, 1, -3)])
    }

    @Test func aGroupDatedPastWhatMillisecondsHoldIsSkippedAndReportedAtAPollANotificationAndARestart() async throws {
        var world = try await WithingsWorld.start(groups: [WithingsEndToEndTests.morning, Self.impossible(9001, modified: 1_763_622_020)],
                                                  publicURL: true)
        defer { world.stop() }
        let linked = try await world.linkThroughTheCallback()
        #expect(linked.status == 0, "\(linked.errors)")
        // The read right after the authorization and this first R each take their turn; once both have asked
        // Withings, a group added now is only seen by what follows.
        _ = try await world.poll()
        try await Self.waitUntil("both first reads asked Withings") { world.fixture.measureCalls >= 2 }
        try await Self.waitUntil("the morning stored") { try await world.scaleReadings().count == 1 }
        #expect(await world.isServing())

        // A poll (the dashboard's R): the good group stored, the impossible one and one dated 1970 refused.
        world.fixture.add(Self.good(1002, date: 1_763_708_400))
        world.fixture.add(Self.impossible(9002, modified: 1_763_708_410))
        world.fixture.add(WithingsExamples.Group(grpid: 9012, date: 0, modified: 1_763_708_410, measures: [(70000, 1, -3)]))
        let polled = try await world.poll()
        #expect(polled["added"] as? Int == 1, "\(polled)")
        let link = try #require((polled["links"] as? [[String: Any]])?.first)
        #expect(link["refused"] as? Int == 2, "\(link)")
        let skipped = (link["skipped"] as? [String] ?? []).joined(separator: "\n")
        #expect(skipped.contains("grpid 9002 dated 9223372036854776") && skipped.contains("grpid 9012 dated 0"), "\(skipped)")
        #expect(skipped.contains("before 2000-01-01 or more than a day ahead"), "\(skipped)")
        #expect(await world.isServing())
        // The sync doctor (`hmon sources`) heard from Withings at each read: two weigh-ins, the skipped groups named.
        let health = try #require(try await world.store.linkHealth(sinceDay: 0).first)
        #expect(health.lastArrivalAt != nil)
        #expect(health.days.map(\.readings).reduce(0, +) == 2, "\(health.days)")
        #expect(health.refusals.contains { $0.why.contains("grpid 9002") }, "\(health.refusals)")

        // A notification: the server answers 200, reads the link, stores the good group and stays up.
        world.fixture.add(Self.good(1003, date: 1_763_794_800))
        world.fixture.add(Self.impossible(9003, modified: 1_763_794_810))
        #expect(try await world.fixture.notify(startdate: 1_763_794_800, enddate: 1_763_794_801) == [200])
        try await Self.waitUntil("the notified weigh-in stored") { try await world.scaleReadings().count == 3 }
        #expect(await world.isServing())
        // An R takes its turn after the notification's read, which has logged what it skipped by then.
        _ = try await world.poll()
        let firstLog = await world.stopAndReadLog()
        #expect(firstLog.contains("grpid 9003 dated 9223372036854776"), "the notification's skipped group is logged: \(firstLog)")

        // A restart: the new server reads the link at once, refuses the impossible group again and keeps serving.
        world.fixture.add(Self.good(1004, date: 1_763_881_200))
        world.fixture.add(Self.impossible(9004, modified: 1_763_881_210))
        world = try await world.restarted()
        try await Self.waitUntil("the weigh-in read at start stored") { try await world.scaleReadings().count == 4 }
        #expect(await world.isServing())
        let secondLog = await world.stopAndReadLog()
        #expect(secondLog.contains("grpid 9004 dated 9223372036854776"), "\(secondLog)")
        #expect(secondLog.contains("skipped"), "\(secondLog)")

        let weights = try await world.scaleReadings().compactMap { $0.data[Field.weight] }
        #expect(weights == [.number(71), .number(71), .number(71), .number(72.35)], "the good groups, newest first; none of the refused")
    }

    /// Polls `condition` every 25 ms until it holds, failing after `Waiting.patience`.
    static func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        if try await Waiting.until(every: .milliseconds(25), condition) { return }
        Issue.record("timed out waiting until \(what)")
        throw CancellationError()
    }
}
