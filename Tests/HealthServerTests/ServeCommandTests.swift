import Foundation
import HealthCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hmon serve` as people run it: a process that serves until it is told to stop.
@Suite struct ServeCommandTests {
    @Test func hmonServeAnswersAndStopsCleanlyOnSIGTERM() async throws {
        let binary = try #require(Self.hmonBinary(), "build hmon first (swift build)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("hmon.sqlite")

        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--db", database.path, "--host", "127.0.0.1", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let banner = try #require(await Self.firstLine(containing: "http://", in: output.fileHandleForReading,
                                                                   orKill: process.processIdentifier),
                                  "hmon serve did not say where it listens")
        let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://") })
        let reply = try await RawHTTP.send("GET", "\(address)/v1.1/users/self", token: "secret-token-value")
        #expect(reply.status == 401)
        #expect(reply.errorCode == 401)

        kill(process.processIdentifier, SIGTERM)
        let status = await Self.waitForExit(process)
        #expect(status == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /v1.1/users/self 401"))
        #expect(!log.contains("secret-token-value"))
    }

    /// The `hmon` built next to this test bundle.
    static func hmonBinary() -> URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("hmon")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Reads lines until one contains `needle`; nil when the stream ends first. After 60 s the process is
    /// killed (its output then ends): a hung process must fail the test, not hang the run.
    static func firstLine(containing needle: String, in handle: FileHandle, orKill pid: Int32) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                var buffer = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return nil }
                    buffer += String(decoding: data, as: UTF8.self)
                    if let line = buffer.split(separator: "\n").first(where: { $0.contains(needle) }) { return String(line) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                if !Task.isCancelled { kill(pid, SIGKILL) }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    static func waitForExit(_ process: Process) async -> Int32? {
        for _ in 0..<600 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(100))
        }
        return process.isRunning ? nil : process.terminationStatus
    }
}
