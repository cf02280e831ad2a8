import Foundation
import Logging
import SQLiteStorage
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 16, item 1, and issue 29, case 3: connections that send nothing, half a request line, half the
/// headers or half a body, or read none of their answers, cannot stall the server — real requests are
/// answered throughout, and the server closes the stragglers after its timeouts; at the caps (in all, and
/// per address) a new connection takes the place of the oldest idle or half-sent one, and is refused as it
/// is accepted only when every place is busy with a request.
@Suite(.heavy, .serialized) struct ConnectionLimitTests {
    /// Short timeouts so the test waits seconds, not minutes; the mechanism is the same at any length.
    static let short = ConnectionLimits(headerTimeout: 1.5, bodyTimeout: 1.5, idleTimeout: 1.5, maxConnections: 2000)

    static let authenticatedGET = "GET /v1.1/users/self HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer TOKEN\r\nConnection: close\r\n\r\n"

    /// Against `hmon serve` in a process of its own: in-process, the server's handlers share Swift's two
    /// cooperative threads with every other suite of the parallel test run. How fast the real requests are
    /// answered is measured by `Benchmarks/held-connections.sh`, not here: a loaded machine must not fail a
    /// test on time.
    @Test func hundredsOfIdleAndHalfSentConnectionsNeitherBlockARealRequestNorStayOpen() async throws {
        try await Self.withServeProcess(["--header-timeout", "1.5", "--body-timeout", "1.5", "--idle-timeout", "1.5"]) { port, token in
            let request = Self.authenticatedGET.replacingOccurrences(of: "TOKEN", with: token)
            // 400 held connections, 100 of each kind: a few hundred is what 2 cores and the test's own
            // descriptor budget bear while other suites run beside this one.
            let stragglers = [
                "",                                                                           // connects, sends nothing
                "GET /v1.1/users/se",                                                         // half a request line
                "GET /v1.1/users/self HTTP/1.1\r\nHost: localhost\r\nX-Slow: ",               // half the headers
                "POST /v1.1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"sdid\":",  // half a body
            ]
            // Opened in batches of 50, a real request after each batch, then one every 50 ms for a second more:
            // every real request is answered throughout.
            var held: [(connection: RawConnection, openedAt: Date)] = []
            var statuses: [Int] = []
            for batch in 0..<8 {
                let opened: [(connection: RawConnection, openedAt: Date)] = try await ServeCommandTests.offThePool {
                    Result { try (0..<50).map { index in
                        let connection = try RawConnection(port: port)
                        let text = stragglers[(batch * 50 + index) % stragglers.count]
                        if !text.isEmpty { try connection.send(text) }
                        return (connection, Date())
                    } }
                }.get()
                held += opened
                statuses.append(try await Self.timedRequest(request, port: port).status)
            }
            let allOpen = Date()
            while Date().timeIntervalSince(allOpen) < 1 {
                statuses.append(try await Self.timedRequest(request, port: port).status)
                await Waiting.clientPause(for: .milliseconds(50))
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "real requests answered \(statuses) while up to 400 connections were held")

            // Every straggler is closed by the server after its timeout (1.5 s; generous slack for a loaded machine).
            let stragglersHeld = held
            let stillOpen = await ServeCommandTests.offThePool {
                stragglersHeld.filter { !$0.connection.waitForClose(timeout: max(0.1, 30 - Date().timeIntervalSince($0.openedAt))) }.count
            }
            #expect(stillOpen == 0, "\(stillOpen) of \(held.count) idle or half-sent connections were still open 30 s after connecting; the timeouts are 1.5 s")
            // And the server goes on answering.
            #expect(try await Self.timedRequest(request, port: port).status == 200)
        }
    }

    @Test func aClientTricklingItsHeadersCannotStretchTheHeaderTimeout() async throws {
        try await ServerWorld.run(limits: ConnectionLimits(headerTimeout: 1, bodyTimeout: 1, idleTimeout: 5, maxConnections: 100)) { world in
            let port = world.server.port
            let closedAfter: Double? = try await ServeCommandTests.offThePool {
                Result { () throws -> Double? in
                    let connection = try RawConnection(port: port)
                    let start = Date()
                    // One header byte every 200 ms: each byte is activity, none completes the head.
                    for byte in "GET /v1.1/users/self HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".map(String.init) {
                        if connection.isClosedByPeer { return Date().timeIntervalSince(start) }
                        try? connection.send(byte)
                        Waiting.clientPause(.milliseconds(200))
                    }
                    return nil
                }
            }.get()
            let seconds = try #require(closedAfter, "a connection trickling its headers stayed open for 12 s")
            // Closed before the trickle ended is the behaviour: a deadline that each byte moved would keep the
            // connection open the trickle's whole 12 s. How soon after 1 s depends on the machine's load, so no
            // upper bound is asserted (a loaded CI machine held the event loop for seconds).
            #expect(seconds >= 0.9, "closed after \(seconds) s, before the header timeout of 1 s")
        }
    }

    @Test func aBodyCutOffByItsDeadlineIsLoggedAsIncompleteNotAsAServerFault() async throws {
        let log = WelltoryCallbackTests.LogLines()
        let logger = Logger(label: "test", factory: { _ in WelltoryCallbackTests.CapturingHandler(sink: log) })
        try await ServerWorld.run(limits: ConnectionLimits(headerTimeout: 5, bodyTimeout: 1, idleTimeout: 5, maxConnections: 100),
                                  logger: logger) { world in
            let token = try await world.rawToken()
            let port = world.server.port
            let closed = try await ServeCommandTests.offThePool {
                Result {
                    let connection = try RawConnection(port: port)
                    // A head promising 100 bytes of body, then 8 of them, then nothing.
                    try connection.send("POST /v1.1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                                        + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sdid\":")
                    return connection.waitForClose(timeout: 30)
                }
            }.get()
            #expect(closed, "a body that stopped arriving kept its connection open 30 s; the body timeout is 1 s")
            let line = await Waiting.firstValue { log.all.first { $0.hasPrefix("POST /v1.1/messages") } }
            #expect(line?.contains(" 408 ") == true, "the request is logged as incomplete: \(log.all)")
            #expect(log.all.contains { $0.contains("did not arrive whole") }, "and the log says what happened: \(log.all)")
            #expect(!log.all.contains { $0.contains(" 500 ") || $0.contains("unexpected error") }, "no server fault is logged: \(log.all)")
        }
    }

    @Test func aKeptAliveConnectionServesRequestsAndIsClosedOnceIdle() async throws {
        try await ServerWorld.run(limits: ConnectionLimits(headerTimeout: 5, bodyTimeout: 5, idleTimeout: 1, maxConnections: 100)) { world in
            let token = try await world.rawToken()
            let port = world.server.port
            let request = Self.authenticatedGET.replacingOccurrences(of: "TOKEN", with: token)
                .replacingOccurrences(of: "Connection: close\r\n", with: "")
            let outcome: (first: String?, second: String?, closedAfter: Double?) = try await ServeCommandTests.offThePool {
                Result {
                    let connection = try RawConnection(port: port)
                    try connection.send(request)
                    let first = connection.readResponse(timeout: 5)
                    Waiting.clientPause(.milliseconds(500))  // within the idle timeout: the connection is still there
                    try connection.send(request)
                    let second = connection.readResponse(timeout: 5)
                    let idleFrom = Date()
                    let closed = connection.waitForClose(timeout: 30)
                    return (first, second, closed ? Date().timeIntervalSince(idleFrom) : nil)
                }
            }.get()
            #expect(outcome.first?.hasPrefix("HTTP/1.1 200") == true)
            #expect(outcome.second?.hasPrefix("HTTP/1.1 200") == true)
            // Closed at all is the behaviour: no other deadline runs after an answer, so without the idle timeout
            // the connection would stay open past the 30 s waited. How soon after 1 s depends on the machine's
            // load (4.5 s was once exceeded on a loaded run), so no upper bound is asserted.
            let idle = try #require(outcome.closedAfter, "an idle kept-alive connection stayed open 30 s; the idle timeout is 1 s")
            #expect(idle >= 0.8, "closed \(idle) s after its last answer, before the idle timeout of 1 s")
        }
    }

    @Test func atTheCapANewConnectionTakesThePlaceOfTheOldestIdleOrHalfSentOne() async throws {
        let limits = ConnectionLimits(headerTimeout: 60, bodyTimeout: 60, idleTimeout: 60, maxConnections: 20, maxConnectionsPerAddress: 20)
        try await ServerWorld.run(limits: limits) { world in
            let port = world.server.port
            let outcome: (answers: [String?], shedClosed: [Bool], othersClosed: Int) = try await ServeCommandTests.offThePool {
                Result {
                    // 20 held connections fill the cap, opened one after another; the oldest has sent half a
                    // request line, the next is idle, the others alternate.
                    let held = try (0..<20).map { index in
                        let connection = try Self.idleConnection(port: port)
                        if index.isMultiple(of: 2) { try connection.send("GET /v1.1/users/se") }
                        return connection
                    }
                    // A real request that stays connected, then one that closes: each takes a held one's place.
                    let kept = try RawConnection(port: port)
                    try kept.send(Self.anonymousGET)
                    let first = kept.readResponse(timeout: 30)
                    let second = try RawConnection(port: port)
                    try second.send(Self.anonymousGET.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
                    let answer = second.readResponse(timeout: 30)
                    let shedClosed = held.prefix(2).map { $0.waitForClose(timeout: 30) }
                    let othersClosed = held.dropFirst(2).filter(\.isClosedByPeer).count
                    withExtendedLifetime(kept) {}
                    return ([first, answer], shedClosed, othersClosed)
                }
            }.get()
            #expect(outcome.answers.allSatisfy { $0?.hasPrefix("HTTP/1.1 401") == true },
                    "at the cap of 20 with idle and half-sent connections, real requests were answered \(outcome.answers.map { $0?.prefix(12) })")
            #expect(outcome.shedClosed == [true, true], "the two oldest held connections (half-sent, idle) were not closed to make room")
            #expect(outcome.othersClosed == 0, "\(outcome.othersClosed) newer held connections were closed instead of the oldest")
        }
    }

    @Test func atTheCapWithEveryConnectionInItsBodyANewOneIsAnswered503AndClosedAtOnce() async throws {
        let limits = ConnectionLimits(headerTimeout: 60, bodyTimeout: 60, idleTimeout: 60, maxConnections: 20, maxConnectionsPerAddress: 20)
        try await ServerWorld.run(limits: limits) { world in
            let port = world.server.port
            let outcome: (refused: String?, refusedClosed: Bool, heldClosed: Int, answerAfterRelease: String?) = try await ServeCommandTests.offThePool {
                Result {
                    // Every place is taken by a request whose head has arrived: none may be shed.
                    var held = try (0..<20).map { _ in try Self.bodyPhaseConnection(port: port) }
                    let refused = try RawConnection(port: port)
                    let answer = refused.readResponse(timeout: 30)
                    let refusedClosed = refused.waitForClose(timeout: 30)
                    let heldClosed = held.filter(\.isClosedByPeer).count
                    // Letting one go makes room again, once the server has seen it close.
                    held.removeFirst()
                    var answerAfterRelease: String?
                    let patience = Date().addingTimeInterval(30)
                    repeat {
                        let next = try RawConnection(port: port)
                        try next.send(Self.anonymousGET.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
                        answerAfterRelease = next.readResponse(timeout: 30)
                        if answerAfterRelease?.hasPrefix("HTTP/1.1 503") == true { Waiting.clientPause(.milliseconds(100)) } else { break }
                    } while Date() < patience
                    withExtendedLifetime(held) {}
                    return (answer, refusedClosed, heldClosed, answerAfterRelease)
                }
            }.get()
            let refused = try #require(outcome.refused, "the connection past the cap got no answer")
            #expect(refused.hasPrefix("HTTP/1.1 503"))
            #expect(refused.lowercased().contains("retry-after: 5"))
            #expect(refused.contains(#""code":503"#))
            #expect(outcome.refusedClosed)
            #expect(outcome.heldClosed == 0, "\(outcome.heldClosed) connections in their body were closed to make room")
            #expect(outcome.answerAfterRelease?.hasPrefix("HTTP/1.1 401") == true)
        }
    }

    @Test func pastItsPerAddressCapAnAddressShedsItsOwnIdleConnectionOrIsRefusedWhileOthersAreServed() async throws {
        let limits = ConnectionLimits(headerTimeout: 60, bodyTimeout: 60, idleTimeout: 60, maxConnections: 100, maxConnectionsPerAddress: 3)
        try await ServerWorld.run(limits: limits) { world in
            let port = world.server.port
            let close = Self.anonymousGET.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n")
            let outcome: (refused: String?, other: String?, idleAddress: String?, idleClosed: [Bool], busyClosed: Int) = try await ServeCommandTests.offThePool {
                Result {
                    // 127.0.0.1 fills its 3 places with requests in their bodies: its 4th is refused…
                    let busy = try (0..<3).map { _ in try Self.bodyPhaseConnection(port: port, source: "127.0.0.1") }
                    let fourth = try RawConnection(port: port, source: "127.0.0.1")
                    try fourth.send(close)
                    let refused = fourth.readResponse(timeout: 30)
                    // …while another address is served,
                    let other = try RawConnection(port: port, source: "127.0.0.2")
                    try other.send(close)
                    let otherAnswer = other.readResponse(timeout: 30)
                    // and an address holding idle connections gives its own oldest up for its 4th.
                    let idle = try (0..<3).map { _ in try Self.idleConnection(port: port, source: "127.0.0.3") }
                    let idleFourth = try RawConnection(port: port, source: "127.0.0.3")
                    try idleFourth.send(close)
                    let idleAnswer = idleFourth.readResponse(timeout: 30)
                    let idleClosed = [idle[0].waitForClose(timeout: 30)] + idle.dropFirst().map(\.isClosedByPeer)
                    return (refused, otherAnswer, idleAnswer, idleClosed, busy.filter(\.isClosedByPeer).count)
                }
            }.get()
            #expect(outcome.refused?.hasPrefix("HTTP/1.1 503") == true, "a 4th connection from 127.0.0.1, all 3 busy: \(outcome.refused?.prefix(40) ?? "no answer")")
            #expect(outcome.refused?.lowercased().contains("retry-after: 5") == true)
            #expect(outcome.other?.hasPrefix("HTTP/1.1 401") == true, "127.0.0.2: \(outcome.other?.prefix(40) ?? "no answer")")
            #expect(outcome.idleAddress?.hasPrefix("HTTP/1.1 401") == true, "a 4th from 127.0.0.3, all 3 idle: \(outcome.idleAddress?.prefix(40) ?? "no answer")")
            #expect(outcome.idleClosed == [true, false, false], "127.0.0.3's oldest, and only it, is closed for its 4th")
            #expect(outcome.busyClosed == 0)
        }
    }

    @Test func aTrustedProxyHasNoPerAddressCap() async throws {
        let limits = ConnectionLimits(headerTimeout: 60, bodyTimeout: 60, idleTimeout: 60, maxConnections: 100, maxConnectionsPerAddress: 2)
        let proxy = try #require(TrustedProxies.Network("127.0.0.4"))
        try await ServerWorld.run(limits: limits, trustedProxies: TrustedProxies([proxy])) { world in
            let port = world.server.port
            // Every user arrives through the proxy: three busy connections from it are all let in.
            let held = try await ServeCommandTests.offThePool {
                Result { try (0..<3).map { _ in try Self.bodyPhaseConnection(port: port, source: "127.0.0.4") } }
            }.get()
            #expect(held.count == 3)
        }
    }

    @Test func aClientThatPipelinesRequestsAndReadsNoAnswerIsClosed() async throws {
        // Every other deadline far away: only the write timeout can close this connection within the test.
        let limits = ConnectionLimits(headerTimeout: 600, bodyTimeout: 600, idleTimeout: 600, writeTimeout: 1, maxConnections: 100)
        try await ServerWorld.run(limits: limits) { world in
            let port = world.server.port
            let closed: Bool = try await ServeCommandTests.offThePool {
                Result {
                    // A small receive buffer: the answers fill it, and then the server's, with little.
                    let connection = try RawConnection(port: port, receiveBuffer: 4096)
                    let requests = Array(String(repeating: Self.anonymousGET, count: 20_000).utf8)
                    var sent = 0
                    // Keeps sending requests, reading nothing, until the server closes the connection (or the
                    // suite's patience runs out: on a machine loaded past 20, 30 s was once not enough).
                    let patience = Date().addingTimeInterval(Waiting.patienceInSeconds)
                    while Date() < patience {
                        if connection.isResetWithoutReading { return true }
                        guard let count = connection.sendWithoutWaiting(requests[(sent % requests.count)...]) else { return true }
                        sent += count
                        if count == 0 { Waiting.clientPause(.milliseconds(50)) }
                    }
                    return false
                }
            }.get()
            #expect(closed, "a client reading none of its answers was still connected after \(Waiting.patienceInSeconds) s; the write timeout is 1 s")
        }
    }

    @Test(.enabled(if: InstalledTool.path(of: "prlimit") != nil, "needs prlimit (util-linux) to start hmon serve with a low descriptor limit"))
    func hmonServeRaisesItsDescriptorLimitToTheHardLimit() async throws {
        let prlimit = try #require(InstalledTool.path(of: "prlimit"))
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("nofile")
        defer { home.remove() }
        let folder = home.folder
        let environment = home.environment
        // Started with a soft limit of 256 (the hard one stays as it is).
        let process = try SpawnedProcess(prlimit, ["--nofile=256:", binary.path, "serve", "--db", folder.appendingPathComponent("hmon.sqlite").path,
                                                   "--port", "0"], environment: environment)
        defer { process.terminate() }
        _ = try #require(await ServeCommandTests.firstLine(containing: "http://", in: process.output, orKill: process.pid),
                         "hmon serve did not start")
        let limits = try String(contentsOfFile: "/proc/\(process.pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 256, "\(line)")
        kill(process.pid, SIGTERM)
        _ = await ServeCommandTests.waitForExit(process)
    }

    @Test(arguments: [
        (["--idle-timeout", "0"], "--idle-timeout 0.0 is not a number of seconds from 0.1 to 3600"),
        (["--write-timeout", "0"], "--write-timeout 0.0 is not a number of seconds from 0.1 to 3600"),
        (["--max-connections", "100", "--max-connections-per-address", "101"],
         "--max-connections-per-address 101 is not a count from 1 to --max-connections (100)"),
        (["--max-connections-per-address", "0"], "--max-connections-per-address 0 is not a count from 1 to --max-connections (2000)"),
        (["--exist-token-days", "0"], "--exist-token-days 0 is not a number of days from 1 to 3650"),
    ])
    func serveRefusesALimitOutOfRange(options: [String], message: String) async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let result = try await ServeCommandTests.run(binary, ["serve"] + options + ["--port", "0"], input: "",
                                                     environment: ProcessInfo.processInfo.environment)
        #expect(result.status != 0)
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test func serveHelpNamesTheWriteTimeoutAndThePerAddressCap() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let result = try await ServeCommandTests.run(binary, ["serve", "--help"], input: "", environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0)
        #expect(result.output.contains("--write-timeout <seconds>"), "\(result.output)")
        #expect(result.output.contains("--max-connections-per-address <count>"), "\(result.output)")
    }

    /// Runs `hmon serve` with `options` over a fresh store holding alice, and `body` with its port and an
    /// access token of alice's; stops the process afterwards, whatever happens.
    static func withServeProcess(_ options: [String], _ body: (_ port: Int, _ token: String) async throws -> Void) async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("hmon.sqlite")
        let store = try LocalStore(url: database, passwordHasher: .fastForTests)
        _ = try await store.createUser(NewAccount(name: "alice", password: ServerWorld.password))
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        let process = try SpawnedProcess(binary, ["serve", "--db", database.path, "--port", "0"] + options, environment: environment)
        defer { process.terminate() }
        let banner = try #require(await ServeCommandTests.firstLine(containing: "http://", in: process.output, orKill: process.pid),
                                  "hmon serve did not start")
        let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://") })
        let port = try #require(Int(address.split(separator: ":").last ?? ""))
        let form = "client_id=hmon&response_type=token&redirect_uri=hmon%3A%2F%2Fsigned-in&username=alice&password=correct%20horse"
        let answer = try await ServeCommandTests.offThePool {
            Result {
                let connection = try RawConnection(port: port)
                try connection.send("POST /authorize HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                                    + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n\(form)")
                return connection.readResponse(timeout: 10) ?? ""
            }
        }.get()
        let location = try #require(answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location:") }, "\(answer.prefix(300))")
        let token = try #require(location.components(separatedBy: "access_token=").last)
        try await body(port, token)
    }

    /// No token: an answer (401) is all the cap tests need, and signing in would hold a connection of its own.
    static let anonymousGET = "GET /v1.1/users/self HTTP/1.1\r\nHost: localhost\r\n\r\n"

    /// A connection the server has admitted and that now waits for its next request, known by the answer to
    /// a first one (so connections made one after another are admitted in that order).
    static func idleConnection(port: Int, source: String? = nil) throws -> RawConnection {
        let connection = try RawConnection(port: port, source: source)
        try connection.send(anonymousGET)
        let answer = connection.readResponse(timeout: 30)
        guard answer?.hasPrefix("HTTP/1.1 401") == true else {
            throw RawConnection.Failure(description: "a connection to hold idle was answered \(answer?.prefix(40) ?? "nothing")")
        }
        return connection
    }

    /// A connection whose request head has arrived and whose body has not: without a token it is answered 401
    /// as soon as its head is read, and then waits for its body, so once the answer is in it is in its body.
    static func bodyPhaseConnection(port: Int, source: String? = nil) throws -> RawConnection {
        let connection = try RawConnection(port: port, source: source)
        try connection.send("POST /v1.1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 500\r\n\r\n{\"sdid\":")
        let answer = connection.readResponse(timeout: 30)
        guard answer?.hasPrefix("HTTP/1.1 401") == true else {
            throw RawConnection.Failure(description: "a connection to hold in its body was answered \(answer?.prefix(40) ?? "nothing")")
        }
        return connection
    }

    /// One request on a fresh connection, timed from connecting to the end of the answer (status 0 for none).
    static func timedRequest(_ request: String, port: Int) async throws -> (status: Int, seconds: Double) {
        try await ServeCommandTests.offThePool {
            Result {
                let start = DispatchTime.now()
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let answer = connection.readResponse(timeout: 30) ?? ""
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                let status = answer.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                return (status, seconds)
            }
        }.get()
    }
}
