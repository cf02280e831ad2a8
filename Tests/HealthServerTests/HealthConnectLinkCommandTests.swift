import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HealthConnectors
import HealthCore
import SQLiteStorage
import Testing
import TestSupport

/// `hmon link add health-connect --signing-secret-file` through the built binary, and `hmon serve` over the
/// same store and data folder checking the signature.
@Suite(.heavy) struct HealthConnectLinkCommandTests {
    @Test func aSignedLinkPrintsItsPathAloneKeepsItsSecretPrivateAndRefusesUnsignedPosts() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("hc-link")
        defer { home.remove() }
        let db = home.folder.appendingPathComponent("hmon.sqlite").path
        func hmon(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String, errors: String) {
            try await ServeCommandTests.run(binary, arguments + ["--db", db], input: input, environment: home.environment)
        }
        #expect(try await hmon(["user", "add", "alice", "--password-stdin"], input: "correct horse\n").status == 0)
        let secretFile = home.folder.appendingPathComponent("signing-secret")
        try Data("the app's signing secret\n".utf8).write(to: secretFile)
        chmod(secretFile.path, 0o600)

        let added = try await hmon(["link", "add", "health-connect", "--user", "alice", "--signing-secret-file", secretFile.path])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.errors.isEmpty, "a private secret file is not warned about: \(added.errors)")
        // The path on a line of its own, for a script or a person to copy whole.
        let path = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("/health-connect/") }.map(String.init), "\(added.output)")
        #expect(path.split(separator: "/").last?.count == 64)
        #expect(!added.output.contains("the app's signing secret"))

        // Kept with the link in the store, where every server of it checks the link's posts alike; in no file of
        // this machine's data folder, which another server of the same store would not have.
        let data = home.folder.appendingPathComponent("data")
        #expect(FileManager.default.enumerator(atPath: data.path)?.compactMap { $0 as? String }
            .first { $0.contains("push-signing/") } == nil)
        let store = try LocalStore(url: URL(fileURLWithPath: db), passwordHasher: .fastForTests)
        let links = try await store.pushLinks()
        #expect(links.count == 1)
        #expect(try await store.pushLinkHolder(secret: String(path.split(separator: "/").last ?? ""), kind: .healthConnect, now: Date())?
            .signingSecret == "the app's signing secret")

        let server = try SpawnedProcess(binary, ["serve", "--db", db, "--host", "127.0.0.1", "--port", "0"] + TestServerLimits.serveOptions, environment: home.environment)
        try await server.whileRunning {
            let banner = try #require(await ServeCommandTests.firstLine(containing: "http://", in: server.output, orKill: server.pid))
            ClientWorld.drain(server)
            let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://") })
            let body = #"{"source": "health_connect", "timestamp": "2025-02-05T12:00:00Z", "app_version": "1.2.0", "weight": [{"kilograms": 75.5, "time": "2025-02-05T07:00:00Z", "uuid": "w-1"}]}"#
            func post(signature: String?) async throws -> Int {
                var request = URLRequest(url: URL(string: String(address) + path)!)
                request.httpMethod = "POST"
                request.httpBody = Data(body.utf8)
                request.timeoutInterval = TestServerLimits.clientTimeout
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                if let signature { request.setValue(signature, forHTTPHeaderField: PushSignature.header) }
                let (_, response) = try await URLSession.shared.data(for: request)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }
            #expect(try await post(signature: nil) == 401)
            #expect(try await post(signature: PushSignature.value(body: Data(body.utf8), secret: "another secret")) == 401)
            #expect(try await post(signature: PushSignature.value(body: Data(body.utf8), secret: "the app's signing secret")) == 200)

            let listed = try await hmon(["link", "list"])
            #expect(listed.output.contains("health-connect") && listed.output.contains("alice"), "\(listed.output)")
            let revoked = try await hmon(["link", "revoke", "health-connect", "--user", "alice"])
            #expect(revoked.status == 0, "\(revoked.errors)")
            #expect(try await store.pushLinks().isEmpty, "the signing secret goes with its link's row")
            #expect(try await post(signature: PushSignature.value(body: Data(body.utf8), secret: "the app's signing secret")) == 404)
        }
    }
}
