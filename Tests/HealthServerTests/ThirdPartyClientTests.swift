import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clients hmon did not write, unchanged but for their base URL, against a real `hmon serve` (issue 26): the
/// ARTIK Cloud Python SDK, generated from SAMI's published v1.1 spec, and an Exist app (requests-oauthlib's
/// OAuth2 sign-in, then exist-client). The scripts in `Tests/ThirdPartyClients` drive them and print a line per
/// check; a test passes when every check of its script passed, and shows the script's report when one did not.
///
/// The clients live in a private Python environment that `Tests/ThirdPartyClients/install.sh` makes (`.ci/run`
/// runs it); without one the suite shows as skipped, saying how to make it.
@Suite(.heavy, .enabled(if: ThirdPartyClients.python != nil, Comment(rawValue: ThirdPartyClients.missing)))
struct ThirdPartyClientTests {
    @Test func theARTIKCloudSDKWorksAgainstEverySAMIRouteOfHmonServe() async throws {
        let world = try await ClientWorld.start("sami-sdk")
        defer { world.stop() }
        let report = try await world.run("sami_client.py", [
            "HMON_USER": ClientWorld.user, "HMON_PASSWORD": ClientWorld.password,
            // A second account, whose token must get 403 on the first one's devices.
            "HMON_OTHER_USER": "bob", "HMON_OTHER_PASSWORD": ClientWorld.bobPassword,
        ])
        #expect(report.status == 0, "sami_client.py exited \(report.status):\n\(report.output)")
    }

    @Test func anExistAppSignsInReadsAndWritesAgainstHmonServeAsAgainstExist() async throws {
        // A lifetime other than the default year, to see `--exist-token-days` reach the token answer.
        let world = try await ClientWorld.start("exist-app", serving: ["--exist-token-days", "400"])
        defer { world.stop() }
        let client = try await world.registerClient(redirectURI: "https://widget.example/callback")
        let personalToken = try await world.personalToken()
        let report = try await world.run("exist_io_client.py", [
            "HMON_USER": ClientWorld.user, "HMON_PASSWORD": ClientWorld.password,
            "HMON_EXIST_CLIENT_ID": client.id, "HMON_EXIST_CLIENT_SECRET": client.secret,
            "HMON_EXIST_REDIRECT_URI": "https://widget.example/callback",
            "HMON_WEIGH_IN_DAY": world.weighInDay,
            "HMON_PERSONAL_TOKEN": personalToken,
            "HMON_EXIST_TOKEN_DAYS": "400",
        ])
        #expect(report.status == 0, "exist_io_client.py exited \(report.status):\n\(report.output)")
    }
}

/// Where the client suites and their Python environment are.
enum ThirdPartyClients {
    /// The package's root: this file is `Tests/HealthServerTests/ThirdPartyClientTests.swift` in it.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
    static let scripts = root.appendingPathComponent("Tests/ThirdPartyClients")
    static let installed = root.appendingPathComponent(".build/third-party-clients/bin/python")
    static let given = ProcessInfo.processInfo.environment["HMON_THIRD_PARTY_PYTHON"]

    /// The environment's python: `HMON_THIRD_PARTY_PYTHON`, else the one install.sh makes by default.
    static let python: URL? = {
        let candidate = ThirdPartyClients.given.map { URL(fileURLWithPath: $0) } ?? ThirdPartyClients.installed
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    static var missing: String {
        let looked = given.map { "HMON_THIRD_PARTY_PYTHON=\($0) is not an executable" } ?? "no \(installed.path)"
        return "the third-party clients are not installed (\(looked)): run Tests/ThirdPartyClients/install.sh"
    }
}

/// A store made with the built `hmon` as a person makes one, and `hmon serve` over it on a free port. The
/// demo's six months of readings give Exist's averages, correlations and insights something to be about; bob
/// is a second account; a weigh-in of 71.7 kg on a known day is what an Exist `update` of that day must not
/// be mixed with.
struct ClientWorld {
    static let user = "demo", password = "demo"   // the account `hmon demo` makes
    static let bobPassword = "correct horse"
    /// A script that has not finished by then is killed, and its test fails showing what it printed.
    static let scriptTimeout: Duration = .seconds(240)

    let home: CommandHome
    let binary: URL
    let database: String
    let server: SpawnedProcess
    let address: String
    let weighInDay: String

    static func start(_ name: String, serving options: [String] = []) async throws -> ClientWorld {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome(name)
        let database = home.folder.appendingPathComponent("hmon.sqlite").path
        func hmon(_ arguments: [String], input: String = "") async throws {
            _ = try await Self.hmon(binary, arguments + ["--db", database], input: input, environment: home.environment)
        }
        do {
            try await hmon(["demo"])
            try await hmon(["user", "add", "bob", "--password-stdin"], input: "\(bobPassword)\n")
            // Three days back, local time: the server's days are local days too.
            let weighInDay = Self.localDate(Calendar.current.date(byAdding: .day, value: -3, to: Date())!)
            try await hmon(["add", "weight", "71.7", "--unit", "kg", "--at", "\(weighInDay) 08:00", "--user", user])

            let server = try SpawnedProcess(binary, ["serve", "--db", database, "--host", "127.0.0.1", "--port", "0"] + TestServerLimits.serveOptions + options,
                                            environment: home.environment)
            guard let banner = await ServeCommandTests.firstLine(containing: "http://", in: server.output, orKill: server.pid),
                  let address = banner.split(separator: " ").first(where: { $0.hasPrefix("http://") }) else {
                await server.terminateAndWait()
                throw Unexpected(text: "hmon serve did not say where it listens")
            }
            Self.drain(server)
            return ClientWorld(home: home, binary: binary, database: database, server: server, address: String(address),
                               weighInDay: weighInDay)
        } catch {
            home.remove()
            throw error
        }
    }

    /// Stops the server; its home goes once it has exited, waited for on a thread of its own (a `defer`
    /// calls this, and cannot await: a wait here would hold a thread of the task pool).
    func stop() {
        server.terminate()
        let (server, home) = (server, home)
        Thread.detachNewThread {
            server.wait()
            home.remove()
        }
    }

    /// An OAuth client registered as its developer would (`hmon client add`), with the id and secret it printed.
    func registerClient(redirectURI: String) async throws -> (id: String, secret: String) {
        let printed = try await Self.hmon(binary, ["client", "add", "Exist widget", "--redirect-uri", redirectURI,
                                                   "--db", database], input: "", environment: home.environment)
        guard let id = Self.value(labelled: "client id:", in: printed),
              let secret = Self.value(labelled: "client secret:", in: printed) else {
            throw Unexpected(text: "hmon client add printed no id and secret: \(printed)")
        }
        return (id, secret)
    }

    /// A read-only personal token (Exist's `Authorization: Token …`), which reads every group.
    func personalToken() async throws -> String {
        let printed = try await Self.hmon(binary, ["token", "add", "--read-only", "--user", Self.user, "--label", "suite",
                                                   "--db", database], input: "", environment: home.environment)
        guard let token = Self.value(labelled: "token:", in: printed) else {
            throw Unexpected(text: "hmon token add printed no token: \(printed)")
        }
        return token
    }

    /// Runs a client script against the server; its exit status and everything it printed.
    func run(_ script: String, _ settings: [String: String]) async throws -> (status: Int32, output: String) {
        let python = try #require(ThirdPartyClients.python)
        var environment = home.environment.merging(settings) { _, given in given }
        environment["HMON_URL"] = address
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        // A proxy of the caller's must not carry requests to a loopback server (urllib and httpx honour these).
        environment["NO_PROXY"] = "127.0.0.1,localhost"
        environment["no_proxy"] = "127.0.0.1,localhost"
        let child = try SpawnedProcess(python, [ThirdPartyClients.scripts.appendingPathComponent(script).path],
                                       environment: environment, mergeErrors: true)
        let pid = child.pid
        let killer = Waiting.killing(pid, after: Self.scriptTimeout)
        defer { killer.cancel() }
        let output = child.output
        let printed = await ServeCommandTests.offThePool { output.readDataToEndOfFile() }
        let status = await ServeCommandTests.waitForExit(child) ?? -1
        let killed = status == 128 + SIGKILL ? "\n(killed after \(Self.scriptTimeout))" : ""
        return (status, String(decoding: printed, as: UTF8.self) + killed)
    }

    /// Runs the built hmon; its standard output, or an error with what it said when it failed.
    static func hmon(_ binary: URL, _ arguments: [String], input: String,
                     environment: [String: String]) async throws -> String {
        let run = try await ServeCommandTests.run(binary, arguments, input: input, environment: environment)
        guard run.status == 0 else {
            throw Unexpected(text: "hmon \(arguments.joined(separator: " ")) exited \(run.status): \(run.errors)")
        }
        return run.output
    }

    /// Reads the server's output and log as they come: a pipe nobody reads fills, and the server would then
    /// stall writing its one line per request.
    static func drain(_ server: SpawnedProcess) {
        for handle in [server.output, server.errors] {
            Thread.detachNewThread { _ = handle.readDataToEndOfFile() }
        }
    }

    static func value(labelled label: String, in printed: String) -> String? {
        printed.split(separator: "\n").first { $0.hasPrefix(label) }
            .map { $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }

    static func localDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    struct Unexpected: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
