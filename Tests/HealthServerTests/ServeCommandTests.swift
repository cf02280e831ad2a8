import Foundation
import SQLiteStorage
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hmon serve` as people run it: a process that serves until it is told to stop.
@Suite(.heavy) struct ServeCommandTests {
    @Test func hmonServeAnswersAndStopsCleanlyOnSIGTERM() async throws {
        let binary = try Self.hmonBinary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("hmon.sqlite")

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        let process = try SpawnedProcess(binary, ["serve", "--db", database.path, "--host", "127.0.0.1", "--port", "0"] + TestServerLimits.serveOptions,
                                         environment: environment)
        defer { process.terminate() }

        let banner = try #require(await Self.firstLine(containing: "http://", in: process.output,
                                                                   orKill: process.pid),
                                  "hmon serve did not say where it listens")
        let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://") })
        let reply = try await RawHTTP.send("GET", "\(address)/v1.1/users/self", token: "secret-token-value")
        #expect(reply.status == 401)
        #expect(reply.errorCode == 401)
        // The log is written off the request's path, but while the server runs, not only when it stops.
        let logged = await Self.firstLine(containing: "GET /v1.1/users/self 401", in: process.errors, orKill: process.pid)
        #expect(logged != nil, "the request's log line did not show while hmon serve ran")

        kill(process.pid, SIGTERM)
        let status = await Self.waitForExit(process)
        #expect(status == 0)
        let errorHandle = process.errors
        let log = (logged ?? "") + String(decoding: await Self.offThePool { errorHandle.readDataToEndOfFile() }, as: UTF8.self)
        #expect(!log.contains("secret-token-value"))
    }

    @Test func addWeightWithServerPostsToTheServerAndKeepsThePrivateSession() async throws {
        let binary = try Self.hmonBinary()
        let home = try CommandHome("remote")
        defer { home.remove() }
        let folder = home.folder
        let environment = home.environment

        let store = try LocalStore(url: folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let scale = try await store.addDevice(name: "Bathroom scale", typeID: BuiltInDeviceType.withings.deviceType.id,
                                              userID: alice.id)
        let server = try await RunningServer.start(store: store, configuration: .forTests())
        defer { Task { await server.stop() } }
        let address = server.url.absoluteString

        let first = try await Self.run(binary, ["add", "weight", "72.4", "--server", address, "--user", "alice", "--password-stdin"],
                                       input: "correct horse\n", environment: environment)
        #expect(first.status == 0, "\(first.errors)")
        // The second call resumes the saved session: no password on standard input this time.
        let second = try await Self.run(binary, ["add", "weight", "72.9", "--server", address], input: "", environment: environment)
        #expect(second.status == 0, "\(second.errors)")

        let weights = try await store.lastMessages(deviceID: scale.id, userID: alice.id, count: 10).compactMap { $0.data["weight"]?.number }
        #expect(weights == [72.9, 72.4])
        let sessionFile = folder.appendingPathComponent("config/hmon/session.json")
        let mode = try FileManager.default.attributesOfItem(atPath: sessionFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let saved = try #require(SessionStore(file: sessionFile).load(at: address))
        #expect(saved.location == address)
        #expect(saved.refreshToken != nil)

        let wrong = try await Self.run(binary, ["add", "weight", "72.9", "--server", "ftp://nowhere"], input: "", environment: environment)
        #expect(wrong.status == 1)
        #expect(wrong.errors.hasPrefix("hmon: --server ftp://nowhere is not a server address"))
        await server.stop()
    }

    /// Runs hmon to the end with `input` on standard input (`BuiltHMon`, the one runner; `binary` is always it).
    static func run(_ binary: URL, _ arguments: [String], input: String,
                    environment: [String: String]) async throws -> (status: Int32, output: String, errors: String) {
        let finished = try await SpawnedProcess.running(binary, arguments, environment: environment, stdin: input)
        return (finished.status, finished.output, finished.errors)
    }

    /// The `hmon` this build made, next to the test bundle; a missing one fails the test saying where it looked.
    static func hmonBinary() throws -> URL {
        try BuiltHMon.url()
    }

    /// Reads lines until one contains `needle`; nil when the stream ends first. After 60 s the process is
    /// killed (its output then ends): a hung process must fail the test, not hang the run.
    static func firstLine(containing needle: String, in handle: FileHandle, orKill pid: Int32) async -> String? {
        let killer = Waiting.killing(pid, after: .seconds(60))
        defer { killer.cancel() }
        return await offThePool {
            var buffer = ""
            while true {
                let data = handle.availableData
                if data.isEmpty { return nil }
                buffer += String(decoding: data, as: UTF8.self)
                if let line = buffer.split(separator: "\n").first(where: { $0.contains(needle) }) { return String(line) }
            }
        }
    }

    /// Runs blocking I/O on a thread of its own: blocking the few threads of Swift's cooperative pool
    /// would stall every test running beside this one (servers included).
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    static func waitForExit(_ process: SpawnedProcess) async -> Int32? {
        await Waiting.until(within: .seconds(60), every: .milliseconds(100)) { !process.isRunning }
        return process.isRunning ? nil : process.wait()
    }
}
