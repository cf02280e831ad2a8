import Foundation
import HealthCore
import HealthModel
import HealthServer
import PostgresStorage
import RemoteClient
import SQLiteStorage
import Synchronization
import Testing
import TestSupport

/// The change feed (`GET /v1.1/hmon/changes`, issue 27 item 3) against a real server on a loopback port:
/// what a dashboard holding it open hears when a reading is posted, by which route, for whom, and what it
/// hears while nothing changes. Waits are generous (they end as soon as the event is there); the latency
/// itself is measured by `Benchmarks/feed-latency.sh`, not here.
@Suite struct ChangeFeedTests {
    @Test(arguments: StoreEngine.available) func aReadingPostedThroughSAMIReachesItsUsersFeedAndNoOneElses(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let alice = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            let bob = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "bob"))
            let head = alice.text.lowercased()
            #expect(head.contains("content-type: text/event-stream"))
            #expect(head.contains("cache-control: no-cache"))
            #expect(head.contains("x-accel-buffering: no"))
            #expect(head.contains("\"heartbeat\":\(TestServerLimits.feedHeartbeat.components.seconds)"))

            let posted = try await world.post("/v1.1/messages", token: try await world.rawToken(for: "alice"),
                                              json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.4}}"#)
            #expect(posted.status == 200, "\(posted.text)")
            #expect(await alice.waitFor("event: change", timeout: Waiting.patienceInSeconds), "alice's dashboard hears of her reading: \(alice.text)")
            #expect(await !bob.waitFor("event: change", timeout: 1), "bob's dashboard hears nothing of alice's reading: \(bob.text)")
        }
    }

    @Test(arguments: StoreEngine.available) func aHealthAutoExportPayloadReachesItsUsersFeedAndNoOneElses(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            // Made before the feeds open: made on the store directly, as `hmon link add` does, it would
            // reach every feed as any other process's write does.
            let link = try await HealthAutoExportTests.link(world)
            let alice = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            let bob = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "bob"))
            // The link stands for alice without any token, as the app posts it.
            let posted = try await world.post(link, json: HealthAutoExportTests.everyKeptMetric)
            #expect(posted.status == 200, "\(posted.text)")
            #expect(await alice.waitFor("event: change", timeout: Waiting.patienceInSeconds), "alice's dashboard hears of the payload: \(alice.text)")
            #expect(await !bob.waitFor("event: change", timeout: 1), "bob's dashboard hears nothing of it: \(bob.text)")
        }
    }

    @Test func whileNothingChangesOnlyHeartbeatsArrive() async throws {
        try await ServerWorld.run(feedHeartbeat: .milliseconds(200)) { world in
            let alice = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            #expect(alice.text.contains("\"heartbeat\":0.2"))
            #expect(await alice.waitFor(": heartbeat", timeout: Waiting.patienceInSeconds, occurrences: 3), "\(alice.text)")
            #expect(!alice.text.contains("event: change"), "nothing changed, so nothing but heartbeats: \(alice.text)")
        }
    }

    @Test func aWriteByAnotherProcessOnTheSameFileReachesEveryFeed() async throws {
        try await ServerWorld.run { world in
            let alice = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            let bob = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "bob"))
            // `hmon add` on the same file: another connection, another store object. Whose data changed is
            // not in SQLite's change token, so every dashboard hears of it.
            let other = try LocalStore(url: world.sqlite.url, passwordHasher: .fastForTests)
            _ = try await LocalHealthService(store: other, userID: world.alice.id)
                .post(NewMessage(sdid: world.aliceScale.id, data: ["weight": .number(72.9)]))
            #expect(await alice.waitFor("event: change", timeout: Waiting.patienceInSeconds), "\(alice.text)")
            #expect(await bob.waitFor("event: change", timeout: Waiting.patienceInSeconds), "\(bob.text)")
        }
    }

    @Test func aUserHoldsAtMostTheCapOfFeedsAndOneThatWentAwayMakesRoom() async throws {
        try await ServerWorld.run(maxFeedsPerUser: 2) { world in
            let token = try await world.rawToken(for: "alice")
            let first = try await FeedListener.open(world.server.port, token: token)
            var second: FeedListener? = try await FeedListener.open(world.server.port, token: token)
            let third = try await world.get("/v1.1/hmon/changes", token: token)
            #expect(third.status == 429, "\(third.text)")
            #expect(third.errorMessage?.contains("already has 2 dashboards following its changes") == true, "\(third.text)")
            #expect(second != nil)
            second = nil   // that dashboard quits: its connection closes
            // As a dashboard does, it tries again while refused: on a busy machine the server may take more than
            // its half second to see the closed connection fail.
            var again: FeedListener?
            for _ in 0..<20 where again == nil {
                again = try? await FeedListener.open(world.server.port, token: token)
            }
            #expect(again?.text.contains("event: ready") == true, "the feed of the dashboard that went away made room")
            _ = first
        }
    }

    @Test func aFeedAsksForAToken() async throws {
        try await ServerWorld.run { world in
            let reply = try await world.get("/v1.1/hmon/changes")
            #expect(reply.status == 401)
        }
    }

    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
    func aPostToOneServerReachesADashboardOnAnotherServerOfTheSamePostgres() async throws {
        try await ServerWorld.run(engine: .postgres) { world in
            try await world.withSecondServer { other in
                let token = try await world.rawToken(for: "alice")
                let onOther = try await FeedListener.open(other.port, token: token)
                let posted = try await world.post("/v1.1/messages", token: token,
                                                  json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.4}}"#)
                #expect(posted.status == 200, "\(posted.text)")
                #expect(await onOther.waitFor("event: change", timeout: Waiting.patienceInSeconds), "the other server's dashboard hears of a post to the first: \(onOther.text)")
            }
        }
    }

    /// On PostgreSQL each write announces whose data it changed (`NOTIFY`): another server wakes that user's
    /// dashboards, with the kinds, and nobody else's. The change token alone would have woken both.
    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
    func aPostToOneServerWakesOnlyThatUsersDashboardsOnAnotherAndNamesItsKinds() async throws {
        try await ServerWorld.run(engine: .postgres) { world in
            try await world.withSecondServer { other in
                let alices = try await FeedListener.open(other.port, token: try await world.rawToken(for: "alice"))
                let bobs = try await FeedListener.open(other.port, token: try await world.rawToken(for: "bob"))
                #expect(await alices.waitFor("event: ready", timeout: Waiting.patienceInSeconds), "\(alices.text)")
                #expect(await bobs.waitFor("event: ready", timeout: Waiting.patienceInSeconds), "\(bobs.text)")
                let posted = try await world.post("/v1.1/messages", token: try await world.rawToken(for: "alice"),
                                                  json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.4}}"#)
                #expect(posted.status == 200, "\(posted.text)")
                #expect(await alices.waitFor(#""kinds":["weights"]"#, timeout: Waiting.patienceInSeconds), "alice's dashboard on the other server: \(alices.text)")
                #expect(await Waiting.neverWithin(.seconds(1)) { bobs.text.contains("event: change") },
                        "bob's dashboard hears nothing of alice's weigh-in: \(bobs.text)")
            }
        }
    }

    /// Each change event names what the write changed, so a dashboard can tell a meal from a weigh-in.
    @Test func aChangeEventNamesTheKindsThePostChanged() async throws {
        try await ServerWorld.run { world in
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let food = try await local.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id)
            let client = try await world.aliceClient()
            let events = FeedEvents(try #require(client.changes()))
            #expect(await events.wait(for: .connected), "\(events.all)")
            let token = try await world.rawToken(for: "alice")
            _ = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(food.id)","data":{"calories":640}}"#)
            #expect(await events.wait(for: .changed(kinds: [.energy])), "\(events.all)")
            _ = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.1}}"#)
            #expect(await events.wait(for: .changed(kinds: [.weights])), "\(events.all)")
            // A write the server does not see names no kind: another process on the same store.
            try await local.post(NewMessage(sdid: food.id, ts: Date().millisecondsSince1970, data: [Field.calories: .number(120)]))
            #expect(await events.wait(for: .changed(kinds: nil)), "\(events.all)")
        }
    }

    /// A night's sleep is shown on the HRV screen beside the next morning's measurement, so a sleep-only post
    /// names HRV among what it changed (the kind says so, not the device type it lands on).
    @Test func aSleepOnlyPostNamesTheHRVScreenAmongWhatItChanged() async throws {
        try await ServerWorld.run { world in
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let tracker = try await local.addDevice(name: "Ring", typeID: BuiltInDeviceType.activityTracker.deviceType.id)
            let client = try await world.aliceClient()
            let events = FeedEvents(try #require(client.changes()))
            #expect(await events.wait(for: .connected), "\(events.all)")
            _ = try await world.post("/v1.1/messages", token: try await world.rawToken(for: "alice"),
                                     json: #"{"sdid":"\#(tracker.id)","data":{"sleepMinutes":425,"inBedMinutes":470}}"#)
            #expect(await events.wait(for: .changed(kinds: [.energy, .hrv])), "\(events.all)")
        }
    }

    // MARK: The dashboard's client

    @Test func theClientHearsAChangeSaysWhenTheServerStopsAndFollowsAgainWhenItIsBack() async throws {
        try await ServerWorld.run { world in
            let client = try await world.aliceClient()
            let events = FeedEvents(try #require(client.changes()))
            #expect(await events.wait(for: .connected), "\(events.all)")
            _ = try await world.post("/v1.1/messages", token: try await world.rawToken(for: "alice"),
                                     json: #"{"sdid":"\#(world.aliceScale.id)","data":{"weight":72.4}}"#)
            #expect(await events.wait(for: .changed(kinds: [.weights])), "\(events.all)")

            let port = world.server.port
            await world.server.stop()
            #expect(await events.wait(for: .disconnected), "\(events.all)")
            #expect(await events.waitUntil { client.offlineSince != nil }, "the dashboard says offline since")

            // The port may be held for a moment by another test's client connection that happened to get it
            // as its own: a server coming back waits for it, as an administrator's restart would.
            let again = try #require(await Waiting.firstValue {
                try? await RunningServer.start(store: world.store, configuration: .forTests(port: port))
            }, "port \(port) stayed taken")
            let reconnected = await events.wait(for: .connected, count: 2)
            let online = client.offlineSince == nil
            await again.stop()
            #expect(reconnected, "the client follows the feed again once the server is back: \(events.all)")
            #expect(online, "and the dashboard is no longer offline")
        }
    }
}

/// A change feed read byte by byte off a plain connection, as any SSE client would see it.
final class FeedListener: @unchecked Sendable {
    private let connection: RawConnection
    private let received = Mutex([UInt8]())

    private init(connection: RawConnection) { self.connection = connection }

    /// Opens the feed with `token` and waits for its `ready` event.
    static func open(_ port: Int, token: String) async throws -> FeedListener {
        let connection = try RawConnection(port: port)
        try connection.send("GET /v1.1/hmon/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n")
        let listener = FeedListener(connection: connection)
        guard await listener.waitFor("event: ready", timeout: Waiting.patienceInSeconds) else {
            throw RawConnection.Failure(description: "no ready event: \(listener.text)")
        }
        return listener
    }

    var text: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

    /// Waits until `text` has arrived `occurrences` times in all (true), or `timeout` seconds passed or the
    /// server closed the stream (false).
    func waitFor(_ text: String, timeout: Double, occurrences: Int = 1) async -> Bool {
        await ServeCommandTests.offThePool { [self] in
            let end = Date().addingTimeInterval(timeout)
            while true {
                if self.text.components(separatedBy: text).count - 1 >= occurrences { return true }
                guard Date() < end, let more = connection.readSome(timeout: min(0.2, end.timeIntervalSinceNow)) else { return false }
                received.withLock { $0 += more }
            }
        }
    }

    /// Waits until the server ended the stream (true): its last chunk came, or it closed the connection; false
    /// when it still streams after `timeout` seconds.
    func waitForEnd(timeout: Double) async -> Bool {
        await ServeCommandTests.offThePool { [self] in
            let end = Date().addingTimeInterval(timeout)
            while true {
                if self.text.hasSuffix("\r\n0\r\n\r\n") { return true }
                guard Date() < end else { return false }
                guard let more = connection.readSome(timeout: min(0.2, end.timeIntervalSinceNow)) else { return true }
                received.withLock { $0 += more }
            }
        }
    }
}

/// The events a client's `changes()` stream gave, collected as they come.
final class FeedEvents: Sendable {
    private final class Heard: Sendable {
        let events = Mutex([ChangeFeedEvent]())
    }

    private let heard: Heard
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<ChangeFeedEvent>) {
        let heard = Heard()
        self.heard = heard
        task = Task { for await event in stream { heard.events.withLock { $0.append(event) } } }
    }

    deinit { task.cancel() }

    var all: [ChangeFeedEvent] { heard.events.withLock { $0 } }

    /// Waits (up to 20 s) until `event` has come `count` times.
    func wait(for event: ChangeFeedEvent, count: Int = 1) async -> Bool {
        await waitUntil { self.all.filter { $0 == event }.count >= count }
    }

    func waitUntil(_ condition: @Sendable () -> Bool) async -> Bool {
        await Waiting.until(every: .milliseconds(50)) { condition() }
    }
}
