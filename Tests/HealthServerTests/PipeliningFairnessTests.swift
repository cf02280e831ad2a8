import Foundation
import HealthCore
import HealthModel
import HealthServer
import SQLiteStorage
import Synchronization
import Testing
import TestSupport

/// One host pipelining requests and reading no answer must not starve the others: past the rate limit its
/// connection is closed instead of fed 429s, and however many connections it opens it has a few requests in
/// the server at a time while another host's are answered. Whether the others stay fast is measured by
/// `Benchmarks/pipelining-fairness.sh`, not here: a loaded machine must not fail a test on time.
@Suite(.heavy, .serialized) struct PipeliningFairnessTests {
    /// Requests back to back, as a pipelining client sends them without waiting for answers.
    static func pipelined(token: String, count: Int) -> [UInt8] {
        Array(String(repeating: "GET /v1.1/users/self HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n",
                     count: count).utf8)
    }

    @Test func aClientPipeliningPastTheRateLimitIsClosedWhileAnotherIsAnswered() async throws {
        // Every deadline far away: only the run of 429s can close this connection within the test.
        let limits = ConnectionLimits(headerTimeout: 600, bodyTimeout: 600, idleTimeout: 600, writeTimeout: 600, maxConnections: 100)
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 30, perDay: 1000), limits: limits) { world in
            let port = world.server.port
            let requests = Self.pipelined(token: try await world.rawToken(for: "bob"), count: 2_000)
            let aliceToken = try await world.rawToken(for: "alice")
            async let closed: Bool = ServeCommandTests.offThePool {
                guard let connection = try? RawConnection(port: port, source: "127.0.0.3") else { return false }
                var sent = 0
                // Sends, reading nothing, until the server closes the connection (or 60 s pass).
                let patience = Date().addingTimeInterval(60)
                while Date() < patience {
                    if connection.isResetWithoutReading { return true }
                    guard let count = connection.sendWithoutWaiting(requests[(sent % requests.count)...]) else { return true }
                    sent += count
                    if count == 0 { _ = connection.waitUntilWritable(timeout: 0.1) }
                }
                return false
            }
            var statuses: [Int] = []
            for _ in 0..<10 { statuses.append(try await world.get("/v1.1/users/self", token: aliceToken).status) }
            #expect(statuses == Array(repeating: 200, count: 10), "another client's requests are answered meanwhile")
            #expect(await closed, "a client pipelining on past the rate limit was still connected after 60 s")
        }
    }

    /// The host at 127.0.0.3 pipelines `count` requests with `token` on one connection and reads nothing;
    /// true once the server closed that connection.
    static func pipelineUntilClosed(port: Int, token: String, count: Int) async -> Bool {
        await ServeCommandTests.offThePool {
            guard let connection = try? RawConnection(port: port, source: "127.0.0.3"),
                  connection.sendWithoutWaiting(pipelined(token: token, count: count)[...]) != nil else { return false }
            return connection.waitForClose(timeout: 60)
        }
    }

    /// A request from 127.0.0.3 on a new connection, sent and not yet read.
    static func sendFromTheRefusedHost(port: Int, token: String) throws -> RawConnection {
        let connection = try RawConnection(port: port, source: "127.0.0.3")
        try connection.send(String(decoding: pipelined(token: token, count: 1), as: UTF8.self))
        return connection
    }

    @Test func aHostDisconnectedForItsRefusalsIsNotReadDuringItsPauseWhileOthersAreAnswered() async throws {
        let limits = ConnectionLimits(headerTimeout: 600, bodyTimeout: 600, idleTimeout: 600, writeTimeout: 600, maxConnections: 100,
                                      refusedAddressPause: 600)
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 3, perDay: 1000), limits: limits) { world in
            let port = world.server.port
            let bob = try await world.rawToken(for: "bob")
            let alice = try await world.rawToken(for: "alice")
            // 3 answered, then 10 refusals in a row: the connection is closed.
            #expect(await Self.pipelineUntilClosed(port: port, token: bob, count: 20), "closed after its tenth 429")
            // Its host's next connection is held unread for the pause (600 s here), whatever token it brings…
            let held = try Self.sendFromTheRefusedHost(port: port, token: alice)
            // …while another host is answered.
            for _ in 0..<3 {
                #expect(try await world.get("/v1.1/users/self", token: alice).status == 200)
            }
            // Any byte of an answer, or a close, is the connection having been read.
            let unread = await Waiting.neverWithin(.seconds(2)) { held.readSome(timeout: 0).map { !$0.isEmpty } ?? true }
            #expect(unread, "the refused host's new connection was read during its pause")
        }
    }

    @Test func aHostsNextConnectionIsAnsweredOnceItsPauseEnds() async throws {
        let limits = ConnectionLimits(headerTimeout: 600, bodyTimeout: 600, idleTimeout: 600, writeTimeout: 600, maxConnections: 100,
                                      refusedAddressPause: 1)
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 3, perDay: 1000), limits: limits) { world in
            let port = world.server.port
            #expect(await Self.pipelineUntilClosed(port: port, token: try await world.rawToken(for: "bob"), count: 20))
            let alice = try await world.rawToken(for: "alice")
            let answer = try await ServeCommandTests.offThePool {
                Result { try Self.sendFromTheRefusedHost(port: port, token: alice).readResponse(timeout: 60) }
            }.get()
            #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "answered after a pause of 1 s: \(answer ?? "nothing in 60 s")")
        }
    }

    @Test func oneHostsRequestsPastItsTurnsWaitWhileAnotherHostsAreAnswered() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-fair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let gate = HeldRequests(marker: "held=1")
        var limits = ConnectionLimits.forTests
        limits.requestsAtOncePerAddress = 4
        var configuration = ServerConfiguration.forTests(limits: limits)
        configuration.beforeEachRequest = { await gate.arrive($0) }
        let server = try await RunningServer.start(store: store, configuration: configuration)
        let (token, _) = try await store.createToken(kind: .access, userID: alice.id, clientID: "hmon", scope: "read,write",
                                                     ttl: 3600, now: Date())
        let request = "GET /v1.1/users/self?held=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n"
        // Twelve requests from one host on twelve connections, each held by the server once it is handled.
        let port = server.port
        let answers = Task {
            await withTaskGroup(of: String?.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        await ServeCommandTests.offThePool {
                            guard let connection = try? RawConnection(port: port, source: "127.0.0.3"),
                                  (try? connection.send(request)) != nil else { return nil }
                            return connection.readResponse(timeout: 120)
                        }
                    }
                }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
        }
        #expect(await gate.waitUntil(heldAtLeast: 4), "the host's first requests are handled")
        // Another host is answered while those are held.
        let other = try await RawHTTP.send("GET", server.url.absoluteString + "/v1.1/users/self", token: token)
        #expect(other.status == 200)
        #expect(gate.held == 4, "one host has at most its 4 turns in the server; the rest wait")
        gate.release()
        let replies = await answers.value
        await server.stop()
        #expect(replies.count == 12)
        #expect(replies.allSatisfy { $0?.hasPrefix("HTTP/1.1 200") == true }, "every waiting request had its turn: \(replies)")
    }
}

/// Holds every request whose path and query contain `marker` until `release()`, counting them.
final class HeldRequests: Sendable {
    private let marker: String
    private let state = Mutex<(held: Int, released: Bool, waiters: [CheckedContinuation<Void, Never>])>((0, false, []))

    init(marker: String) { self.marker = marker }

    var held: Int { state.withLock { $0.held } }

    func arrive(_ uri: String) async {
        guard uri.contains(marker) else { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                state.held += 1
                if state.released { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Polls (up to 60 s) until at least `count` requests are held.
    func waitUntil(heldAtLeast count: Int) async -> Bool {
        await Waiting.until(within: .seconds(60)) { held >= count }
    }
}
