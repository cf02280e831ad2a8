import Foundation
import HealthCore
import HealthModel
import SQLiteStorage
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real `hmon serve` killed with SIGKILL while it keeps a first sync's backfill (30,000 records: six of
/// the 5,000-record transactions it once used) leaves all of the batch or none of it, and the same batch
/// sent again, as the app sends it when no 200 came, is kept whole.
@Suite(.heavy) struct HealthConnectKillTests {
    static let records = 30_000

    /// HC Webhook's short resting heart rate records, a minute apart from 2024-01-01 (`gen-health-connect.py`'s shape).
    static func backfill() -> Data {
        let formatter = ISO8601DateFormatter()
        let start = Date(timeIntervalSince1970: 1_704_067_200)
        let records = (0..<Self.records).map { minute in
            #"{"bpm":\#(55 + minute % 60),"time":"\#(formatter.string(from: start.addingTimeInterval(Double(minute) * 60)))"}"#
        }
        return Data((#"{"timestamp":"2025-06-01T12:00:00Z","app_version":"1.9.15","resting_heart_rate":["#
                     + records.joined(separator: ",") + "]}").utf8)
    }

    @Test func aServerKilledWhileKeepingABackfillKeepsAllOrNoneAndTheBatchSentAgainIsWhole() async throws {
        let binary = try BuiltHMon.url()
        let home = try CommandHome("health-connect-kill")
        defer { home.remove() }
        let database = home.folder.appendingPathComponent("server.sqlite")
        let store = try LocalStore(url: database, passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let (_, secret) = try await store.createPushLink(kind: .healthConnect, userID: alice.id, now: Date())
        func serve() async throws -> (process: SpawnedProcess, link: String) {
            let process = try SpawnedProcess(binary, ["serve", "--db", database.path, "--host", "127.0.0.1", "--port", "0"]
                                             + TestServerLimits.serveOptions, environment: home.environment)
            let banner = try #require(await ServeCommandTests.firstLine(containing: "http://", in: process.output, orKill: process.pid),
                                      "hmon serve did not say where it listens")
            let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://") })
            return (process, address + "/health-connect/" + secret)
        }
        let body = Self.backfill()
        let headers = ["Content-Type": "application/json"]

        // Killed once the batch is being written: SQLite spills the open transaction's pages to the WAL file.
        let first = try await serve()
        let posting = Task { try? await RawHTTP.send("POST", first.link, headers: headers, body: body) }
        let wal = database.path + "-wal"
        let writing = await Waiting.until(within: .seconds(300), every: .milliseconds(10)) {
            ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) > 2_000_000
        }
        kill(first.process.pid, SIGKILL)
        _ = await ServeCommandTests.waitForExit(first.process)
        let answer = await posting.value
        #expect(writing, "the server never began writing the batch")
        let kept = try await store.countReadings(userID: alice.id, from: 0)
        #expect(kept == 0 || kept == Self.records, "a kill part way kept \(kept) of \(Self.records) readings (answer: \(answer?.status ?? 0))")

        let second = try await serve()
        defer { second.process.terminate() }
        let again = try await RawHTTP.send("POST", second.link, headers: headers, body: body)
        #expect(again.status == 200, "\(again.text)")
        #expect(try await store.countReadings(userID: alice.id, from: 0) == Self.records)
    }
}
