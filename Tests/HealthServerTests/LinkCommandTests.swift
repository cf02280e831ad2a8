import Foundation
import HealthCore
import HealthModel
import Testing
import TestSupport

/// `hmon link add/list/revoke` through the built binary, against a real server on the same store.
@Suite(.heavy) struct LinkCommandTests {
    @Test func aLinkIsShownOnceListedWithoutItsSecretUsedAndRevoked() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("hae-link")
        defer { home.remove() }
        try await ServerWorld.run { world in
            let db = world.sqlite.path
            let loopback = try await ServeCommandTests.run(binary, ["link", "add", "health-auto-export", "--db", db, "--user", "alice",
                                                                   "--base-url", "http://127.0.0.1:8080"], input: "", environment: home.environment)
            #expect(loopback.status == 2, "the phone cannot reach this machine's loopback")
            #expect(loopback.errors.contains("--allow-loopback"))

            let added = try await ServeCommandTests.run(binary, ["link", "add", "health-auto-export", "--db", db, "--user", "alice",
                                                                 "--base-url", world.url.absoluteString, "--allow-loopback"],
                                                        input: "", environment: home.environment)
            #expect(added.status == 0, "\(added.errors)")
            #expect(added.output.contains("Export Format:    JSON") && added.output.contains("Since Last Sync"))
            let url = try #require(added.output.split(whereSeparator: \.isWhitespace).first { $0.contains("/health-auto-export/") })
            let secret = String(url.split(separator: "/").last!)
            #expect(secret.count == 64, "256 random bits")
            let id = try #require(try await world.store.pushLinks().first?.id)

            let body = #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"qty": 5, "date": "2026-11-20 08:00:00 +0100", "source": "Apple Watch"}]}]}}"#
            #expect(try await world.post("/health-auto-export/" + secret, json: body).status == 200)

            let listed = try await ServeCommandTests.run(binary, ["link", "list", "--db", db], input: "", environment: home.environment)
            #expect(listed.status == 0, "\(listed.errors)")
            #expect(listed.output.contains(id) && listed.output.contains("health-auto-export") && listed.output.contains("alice"))
            #expect(listed.output.contains("last used"), "\(listed.output)")
            #expect(!listed.output.contains(secret), "only the hash is kept")

            let revoked = try await ServeCommandTests.run(binary, ["link", "revoke", id, "--db", db], input: "", environment: home.environment)
            #expect(revoked.status == 0, "\(revoked.errors)")
            #expect(try await world.post("/health-auto-export/" + secret, json: body).status == 404)
            let again = try await ServeCommandTests.run(binary, ["link", "revoke", id, "--db", db], input: "", environment: home.environment)
            #expect(again.status == 1)
            #expect(again.errors.contains("hmon link list"))
        }
    }

    @Test func aSigningSecretIsRefusedForAnAppThatCannotSignSayingWhy() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("unsigned-link")
        defer { home.remove() }
        let db = home.folder.appendingPathComponent("hmon.sqlite").path
        let secretFile = home.folder.appendingPathComponent("signing-secret")
        try Data("a signing secret\n".utf8).write(to: secretFile)
        chmod(secretFile.path, 0o600)
        #expect(try await ServeCommandTests.run(binary, ["user", "add", "alice", "--password-stdin", "--db", db],
                                                input: "correct horse\n", environment: home.environment).status == 0)
        for (kind, app) in [("health-auto-export", "Health Auto Export"), ("openscale", "openScale-sync")] {
            let refused = try await ServeCommandTests.run(binary, ["link", "add", kind, "--user", "alice", "--db", db,
                                                                   "--signing-secret-file", secretFile.path],
                                                          input: "", environment: home.environment)
            #expect(refused.status == 2, "\(kind): \(refused.output)")
            #expect(refused.errors.contains("\(app) cannot sign its posts"), "\(kind): \(refused.errors)")
            #expect(refused.errors.contains("hmon link add health-connect"), "names the kind that takes one: \(refused.errors)")
        }
        let listed = try await ServeCommandTests.run(binary, ["link", "list", "--db", db], input: "", environment: home.environment)
        #expect(listed.output.contains("No links"), "a refused link is not made: \(listed.output)")
    }
}
