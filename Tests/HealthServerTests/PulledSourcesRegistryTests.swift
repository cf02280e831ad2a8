import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HealthConnectors
import HealthCore
@testable import HealthServer
import RemoteClient
import Testing
import TestSupport

/// The pulled sources are wired from one list, `PulledSources`: every source in it has its routes served, its
/// links' secrets hidden in the request log, its answer in the all-links poll, its poll asked by a remote
/// dashboard of an older server, its link kind taken, made, listed, revoked and read by the command line,
/// none of which names the source.
@Suite(.heavy) struct PulledSourcesRegistryTests {
    @Test func everyPulledSourceHasItsLinksSecretHiddenInTheRequestLog() {
        #expect(!PulledSources.served.isEmpty)
        for source in PulledSources.served {
            let secret = String(repeating: "a", count: 64)
            #expect(RequestLogMiddleware.loggedPath("/\(source.kindName)/\(secret)") == "/\(source.kindName)/…")
            #expect(RequestLogMiddleware.loggedPath("/\(source.kindName)/\(secret)").contains(secret) == false)
        }
    }

    @Test func everyPulledSourceIsServedWhenTheServerIsGivenItsSettingsAndNotOtherwise() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-pulled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kinds = PulledSources.served.map { $0.kindName }
        let settings = PulledSources.served.map { Self.settings(of: $0, folder: folder) }

        try await ServerWorld.run(pulledSources: settings) { world in
            let token = try await world.token()
            for source in PulledSources.served {
                let kind = source.kindName
                let poll = try await RawHTTP.send("POST", world.url.absoluteString + "/v1.1/hmon/\(kind)/poll", token: token)
                #expect(poll.status == 200, "\(kind): \(poll.status)")
                let wrong = try await RawHTTP.send("GET", world.url.absoluteString + "/\(kind)/" + String(repeating: "0", count: 64))
                #expect(wrong.status == 404, "\(kind)")
                #expect(String(decoding: wrong.body, as: UTF8.self).contains("This is not an hmon \(source.sourceName) link"), "\(kind)")
            }
            let all = try await RawHTTP.send("POST", world.url.absoluteString + "/v1.1/hmon/links/poll", token: token)
            #expect(all.status == 200)
            let answer = try #require(try JSONSerialization.jsonObject(with: all.body) as? [String: Any])
            #expect(Set(answer.keys) == Set(["added"] + kinds), "\(answer)")
        }

        try await ServerWorld.run { world in
            let token = try await world.token()
            for kind in kinds {
                let poll = try await RawHTTP.send("POST", world.url.absoluteString + "/v1.1/hmon/\(kind)/poll", token: token)
                #expect(poll.status == 404, "\(kind) without its settings is not served")
            }
            let all = try await RawHTTP.send("POST", world.url.absoluteString + "/v1.1/hmon/links/poll", token: token)
            let answer = try #require(try JSONSerialization.jsonObject(with: all.body) as? [String: Any])
            #expect(Set(answer.keys) == ["added"], "\(answer)")
        }
    }

    @Test func aRemoteDashboardAsksAServerFromBeforeTheAllLinksPollForEveryPulledSource() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-pulled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = PulledSources.served
        let asked = ["/v1.1/hmon/links/poll"] + sources.map { "/v1.1/hmon/\($0.kindName)/poll" }
        // A server that reads every source, then one that reads only the first: a source it does not read
        // answers 404, which adds nothing and is no failure of R.
        for read in [sources, Array(sources.prefix(1))] {
            try await ServerWorld.run(pulledSources: read.map { Self.settings(of: $0, folder: folder) }) { world in
                let older = try await OlderServer.start(before: world.url)
                defer { older.stop() }
                let dashboard = RemoteHealthService(server: older.url, options: .init(timeout: 300))
                _ = try await dashboard.signIn(name: "alice", password: ServerWorld.password)
                #expect(try await dashboard.pollLinkedSources() == 0)
                #expect(older.polls == asked, "reading \(read.map { $0.kindName })")
            }
        }
    }

    @Test func everyPulledSourceIsLinkedListedRevokedAndReadByTheCommandLine() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("pulled-registry")
        defer { home.remove() }
        let db = home.folder.appendingPathComponent("hmon.sqlite").path
        #expect(try await ServeCommandTests.run(binary, ["user", "add", "alice", "--password-stdin", "--db", db],
                                                input: "correct horse\n", environment: home.environment).status == 0)
        let serveHelp = try await ServeCommandTests.run(binary, ["serve", "--help"], input: "", environment: home.environment)
        // Before any link: `hmon sources` names every kind to make one of, and a kind hmon does not know is refused
        // with the list.
        let noLinks = try await ServeCommandTests.run(binary, ["sources", "--db", db], input: "", environment: home.environment)
        let unknown = try await ServeCommandTests.run(binary, ["link", "add", "nothing", "--db", db], input: "", environment: home.environment)
        #expect(unknown.status != 0)

        for source in PulledSources.all {
            let kind = source.kindName
            #expect(noLinks.output.contains("No links yet") && noLinks.output.contains(kind), "\(kind): \(noLinks.output)")
            #expect(unknown.errors.contains("'\(kind)'"), "\(kind): \(unknown.errors)")
            // `hmon serve` reads it every --KIND-poll-minutes, and checks the option.
            #expect(serveHelp.output.contains("--\(kind)-poll-minutes"), "\(kind): \(serveHelp.output)")
            let badPoll = try await ServeCommandTests.run(binary, ["serve", "--db", db, "--port", "0", "--\(kind)-poll-minutes", "0"],
                                                          input: "", environment: home.environment)
            #expect(badPoll.status == 2 && badPoll.errors.contains("--\(kind)-poll-minutes 0 is not a number of minutes"), "\(kind): \(badPoll.errors)")

            // `hmon link add KIND` asks for the shared client options and reads the source's own hidden ones.
            let noClient = try await ServeCommandTests.run(binary, ["link", "add", kind, "--db", db, "--user", "alice"],
                                                           input: "", environment: home.environment)
            #expect(noClient.status == 2 && noClient.errors.contains("\(kind) needs --client-id"), "\(kind): \(noClient.errors)")
            let badAPI = try await ServeCommandTests.run(binary, ["link", "add", kind, "--db", db, "--user", "alice", "--client-id", "app",
                                                                  "--base-url", "https://health.example", "--\(kind)-api-url", "nowhere"],
                                                         input: "", environment: home.environment)
            #expect(badAPI.status == 2 && badAPI.errors.contains("--\(kind)-api-url and"), "\(kind): \(badAPI.errors)")

            // A link made and left waiting (Enter) is listed as waiting, and revoking the kind deletes its file.
            var environment = home.environment
            environment["HMON_\(kind.uppercased())_CLIENT_SECRET"] = "the-apps-secret"
            let made = try await ServeCommandTests.run(binary, ["link", "add", kind, "--db", db, "--user", "alice", "--client-id", "app",
                                                                "--base-url", "https://health.example"],
                                                       input: "\n", environment: environment)
            #expect(made.status == 0, "\(kind): \(made.errors)")
            #expect(made.output.contains("https://health.example/\(kind)/"), "\(kind): \(made.output)")
            let files = home.folder.appendingPathComponent("data/hmon/\(kind)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).count == 1, "\(kind): the link's file")
            let listed = try await ServeCommandTests.run(binary, ["link", "list", "--db", db], input: "", environment: home.environment)
            #expect(listed.output.contains("(finish `hmon link add \(kind)`)"), "\(kind): \(listed.output)")
            let revoked = try await ServeCommandTests.run(binary, ["link", "revoke", kind, "--db", db], input: "", environment: home.environment)
            #expect(revoked.status == 0 && revoked.output.contains("Revoked 1 \(kind) link."), "\(kind): \(revoked.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).isEmpty, "\(kind): the file goes with the link")
        }
    }

    /// Settings that read the real service, which no test reaches: with no link, the server never calls it.
    private static func settings<Source: ServedPulledSource>(of _: Source.Type, folder: URL) -> any PulledSourceSettings {
        PulledSettings(api: Source(endpoints: Source.Endpoints.real, transport: PulledHTTPTransport()),
                       files: PulledLinkFiles<Source.Link>(folder: folder.appendingPathComponent(Source.kindName)), pollInterval: .seconds(3600))
    }
}
