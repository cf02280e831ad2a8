import Foundation
import HealthCore
import Hummingbird
import Logging
@testable import RemoteClient
import Testing
import TestSupport

/// The change feed's client against servers that are not `hmon serve` as it is today: one without the route
/// (an older server) and one whose feed falls silent (a connection dropped without a word); and its reading
/// of event streams cut anywhere.
@Suite(.heavy) struct ChangeFeedClientTests {
    @Test func aServerWithoutTheFeedIsSaidOnceSoTheDashboardPollsInstead() async throws {
        try await withFixture(Router()) { client in
            let events = FeedEvents(try #require(client.changes()))
            #expect(await events.wait(for: .unsupported), "\(events.all)")
            #expect(await Waiting.neverWithin(.milliseconds(300)) { events.all != [.unsupported] },
                    "said once, and nothing tried again: \(events.all)")
        }
    }

    @Test func aFeedThatFallsSilentIsOpenedAgainAndTheDashboardIsOfflineMeanwhile() async throws {
        let router = Router()
        // A ready event promising a heartbeat every 0.2 s, then nothing: as a dead connection looks.
        router.get("/v1.1/hmon/changes") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "event: ready\ndata: {\"token\":1,\"heartbeat\":0.2}\n\n"))
                await Waiting.holdOpen()
            })
        }
        try await withFixture(router) { client in
            let events = FeedEvents(try #require(client.changes()))
            #expect(await events.wait(for: .disconnected), "\(events.all)")
            #expect(client.offlineSince != nil, "offline since the feed fell silent")
            #expect(await events.wait(for: .connected, count: 2), "and it is opened again: \(events.all)")
        }
    }

    @Test func eventsAreReadWhereverTheChunksAreCut() throws {
        let stream = "retry: 1000\r\nevent: ready\r\ndata: {\"token\":1}\r\n\r\n: heartbeat\n\nevent: change\ndata: a\ndata: b\n\ndata: plain\r\r"
        let whole = try { var parser = ServerSentEvents(); return try parser.feed(Array(stream.utf8)) }()
        #expect(whole == [.init(name: "ready", data: "{\"token\":1}"), .init(name: "change", data: "a\nb"), .init(name: "message", data: "plain")])
        for cut in 1..<stream.utf8.count {
            var parser = ServerSentEvents()
            let bytes = Array(stream.utf8)
            let events = try parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...])
            #expect(events == whole, "cut at byte \(cut)")
        }
    }

    /// A Hummingbird server with `router` on a free loopback port, and a client with a session on it.
    private func withFixture(_ router: Router<BasicRequestContext>, _ body: (RemoteHealthService) async throws -> Void) async throws {
        let (ports, sink) = AsyncStream<Int>.makeStream()
        let quiet = Logger(label: "fixture", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { sink.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let task = Task { try await app.run() }
        defer { task.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let client = RemoteHealthService(server: server, options: .init(timeout: TestServerLimits.clientTimeout))
        // The fixture has no users/self: the session is kept all the same, which is all the feed needs.
        _ = try? await client.resume(Session(userID: "u1", userName: "alice", location: server.absoluteString, token: "t0k"))
        try await body(client)
    }
}
