import Foundation
import RemoteClient
import HealthCore
import SAMIContract
import HealthModel
import HealthServer
import Hummingbird
import Logging
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The remote client against servers that fail: every fault is an error naming the server, never a
/// crash or a hang.
@Suite(.heavy) struct NetworkFaultTests {
    /// For the fixture server in this process: a full parallel run can keep the task pool busy for a long
    /// stretch, and this test is about the answers' contents, not their time.
    static let patient: TimeInterval = 300

    @Test func aServerThatIsNotRunningIsUnreachableWithItsAddress() async throws {
        // A port bound but not listening refuses connections, and no other test's server can take it meanwhile
        // (a port freed by a stopped server could be handed to the next server that asks for port 0).
        let closed = try SilentListener(listening: false)
        // Held to the end: Swift may release an object after its last use, which would free the port early.
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        let client = RemoteHealthService(server: URL(string: "http://127.0.0.1:\(port)")!, options: .init(timeout: 20))
        do {
            _ = try await client.signIn(name: "alice", password: "x")
            Issue.record("signing in to a closed port succeeded")
        } catch let HealthError.serverUnreachable(message) {
            #expect(message.contains("127.0.0.1:\(port)"))
            #expect(message.contains("connection refused"))
        }
    }

    /// Timed by `timeout(1)` around the command, not by this process: here, other suites' work (the
    /// password-guessing ones spend whole cores) can hold the test's own tasks back for seconds.
    @Test func aStoppedServerIsReportedAtOnceNotAfterRetries() async throws {
        let closed = try SilentListener(listening: false)
        defer { withExtendedLifetime(closed) {} }
        let binary = try ServeCommandTests.hmonBinary()
        let timeout = try #require(["/usr/bin/timeout", "/bin/timeout"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                   "coreutils' timeout is needed to time the command")
        let home = try CommandHome("refused")
        defer { home.remove() }
        let environment = home.environment
        // Before, the connection pool retried with back-off until its 10 s connect timeout; 124 is
        // timeout's word for "still running after 5 s".
        let result = try await ServeCommandTests.run(
            URL(fileURLWithPath: timeout),
            ["5", binary.path, "device", "list", "--server", "http://127.0.0.1:\(closed.port)", "--user", "alice", "--password-stdin"],
            input: "secret\n", environment: environment)
        #expect(result.status != 124, "no answer within 5 s")
        #expect(result.status != 0)
        #expect(result.errors.contains("connection refused"), "\(result.errors)")
    }

    @Test func anAddressThatIsNotHTTPIsRefusedBeforeAnyRequest() async throws {
        let client = RemoteHealthService(server: URL(string: "ftp://127.0.0.1:21")!, options: .init(timeout: 5))
        do {
            _ = try await client.signIn(name: "alice", password: "x")
            Issue.record("an ftp:// server was accepted")
        } catch let HealthError.serverUnreachable(message) {
            #expect(message.contains("ftp://127.0.0.1:21"))
            #expect(message.contains("not an http:// or https:// address"))
        }
    }

    @Test func aWaitForTheServerThatIsNotANumberOfSecondsIsRefusedSayingWhatToDo() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("server-wait")
        defer { home.remove() }
        for text in ["soon", "0", "601"] {
            let result = try await ServeCommandTests.run(
                binary, ["device", "list", "--server", "http://127.0.0.1:9", "--user", "alice", "--password-stdin"],
                input: "secret\n", environment: home.environment.merging(["HMON_SERVER_WAIT": text]) { $1 })
            #expect(result.status == 1)
            #expect(result.errors == "hmon: HMON_SERVER_WAIT=\"\(text)\" is not a number of seconds from 1 to 600: unset it for the default of 10\n",
                    "\(result.errors)")
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let silent = try SilentListener()
        let client = RemoteHealthService(server: URL(string: "http://127.0.0.1:\(silent.port)")!, options: .init(timeout: 1))
        do {
            _ = try await client.signIn(name: "alice", password: "x")
            Issue.record("a silent server answered")
        } catch let HealthError.serverUnreachable(message) {
            #expect(message.contains("no answer in time"))
        }
    }

    @Test func a5xxAndABodyThatIsNotTheContractAreServerErrors() async throws {
        let router = Router()
        router.get("/v1.1/users/self") { _, _ in "<html>not json</html>" }
        router.get("/v1.1/users/:uid/devices") { _, _ -> Response in Response(status: .internalServerError) }
        let (ports, sink) = AsyncStream<Int>.makeStream()
        let quiet = Logger(label: "fixture", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { sink.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let task = Task { try await app.run() }
        defer { task.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let session = Session(userID: "u1", userName: "alice", location: server.absoluteString, token: "t0k")

        do {
            _ = try await RemoteHealthService(server: server, options: .init(timeout: Self.patient)).resume(session)
            Issue.record("a body that is not the contract was accepted")
        } catch let HealthError.serverError(message) {
            #expect(message.contains("not the SAMI contract"))
            #expect(message.contains("127.0.0.1:\(port)"))
        }

        let client = RemoteHealthService(server: server, options: .init(timeout: Self.patient))
        _ = try? await client.resume(session)
        do {
            _ = try await client.devices()
            Issue.record("a 500 was accepted")
        } catch let HealthError.serverError(message) {
            #expect(message.contains("HTTP 500"))
        }
    }
}

/// A TCP socket that listens and never accepts or answers: the kernel completes connections, the
/// request goes out, and no reply ever comes.
final class SilentListener: Sendable {
    let port: Int
    private let descriptor: Int32

    /// - Parameter listening: false keeps the port bound but refusing connections.
    init(listening: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, !listening || listen(fd, 8) == 0 else {
            close(fd)
            throw JSONShapeError(text: "cannot listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
