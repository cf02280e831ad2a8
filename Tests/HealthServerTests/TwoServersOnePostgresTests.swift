import Foundation
import PostgresStorage
import HealthCore
import HealthModel
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two `hmon serve` processes on one PostgreSQL database, as a clinic runs them behind a load balancer:
/// the accounts and clients are made with the command line on the same URL, a token issued by one
/// server works on the other, and revoking it on one stops it on the other within a second.
@Suite(.heavy, .enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct TwoServersOnePostgresTests {
    @Test func aTokenIssuedByOneServerWorksOnTheOtherUntilRevokedThere() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("two-servers")
        defer { home.remove() }
        let url = try await TestPostgres.newDatabase()
        var environment = home.environment
        environment["HMON_DB"] = url

        let added = try await ServeCommandTests.run(binary, ["user", "add", "alice", "--password-stdin"],
                                                    input: "correct horse\n", environment: environment)
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("created user alice in postgres://"))
        let device = try await ServeCommandTests.run(binary, ["device", "add", "--name", "Scale", "--type", "Withings Device", "--user", "alice"],
                                                     input: "", environment: environment)
        #expect(device.status == 0, "\(device.errors)")
        let client = try await ServeCommandTests.run(binary, ["client", "add", "bridge", "--user", "alice"], input: "", environment: environment)
        #expect(client.status == 0, "\(client.errors)")
        let clientID = try #require(Self.value(after: "client id:", in: client.output))
        let secret = try #require(Self.value(after: "client secret:", in: client.output))

        let store = try await PostgresStore.open(try PostgresLocation(url), access: .readWrite)
        let alice = try #require(try await store.user(named: "alice"))
        let scale = try #require(try await store.devices(userID: alice.id).first)

        let (one, oneAddress) = try await Self.serve(binary, environment: environment)
        defer { one.terminate() }
        let (other, otherAddress) = try await Self.serve(binary, environment: environment)
        defer { other.terminate() }

        let form = "grant_type=client_credentials&client_id=\(clientID)&client_secret=\(secret)"
        let issued = try await RawHTTP.send("POST", "\(oneAddress)/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                            body: Data(form.utf8))
        #expect(issued.status == 200, "\(issued.text)")
        let token = try #require(try issued.json["access_token"] as? String)

        func post(_ address: String, _ kg: Double) async throws -> Int {
            try await RawHTTP.send("POST", "\(address)/v1.1/messages", token: token, headers: ["Content-Type": "application/json"],
                                   body: Data(#"{"sdid":"\#(scale.id)","data":{"weight":\#(kg)}}"#.utf8)).status
        }
        #expect(try await post(oneAddress, 72.4) == 200)
        #expect(try await post(otherAddress, 72.5) == 200, "a token issued by one server works on the other")
        #expect(try await store.messageCount(userID: alice.id) == 2)

        let revoked = try await RawHTTP.send("PUT", "\(oneAddress)/revokeAccessToken", token: token)
        #expect(revoked.status == 200, "\(revoked.text)")
        // The other server caches checked tokens for seconds, but re-reads any token once the database's
        // change counter moved (looked at every 50 ms): the revocation must show within a second.
        #expect(try await Waiting.until { try await post(otherAddress, 72.6) == 401 },
                "a token revoked on one server stops working on the other")
        store.close()
    }

    /// Starts `hmon serve` on a free port; returns it with its address, once it said where it listens.
    static func serve(_ binary: URL, environment: [String: String]) async throws -> (SpawnedProcess, String) {
        let process = try SpawnedProcess(binary, ["serve", "--host", "127.0.0.1", "--port", "0"] + TestServerLimits.serveOptions, environment: environment)
        let banner = try #require(await ServeCommandTests.firstLine(containing: "http://", in: process.output, orKill: process.pid),
                                  "hmon serve did not say where it listens")
        #expect(banner.contains("serving postgres://"), "the banner names the database: \(banner)")
        let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://") })
        return (process, String(address))
    }

    static func value(after label: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(label) }.map { $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }
}
