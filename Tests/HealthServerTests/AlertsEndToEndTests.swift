import Foundation
import HealthAlerts
import HealthConnectors
import HealthCore
import HealthModel
import HealthServer
import RemoteClient
import Testing
import TestSupport

/// Alerts as a person meets them: a server watching `[[alerts]]` sends ntfy's publish request to a loopback
/// stand-in when HRV falls below the normal range for two days — once for the episode, not again while it
/// lasts — and `hmon alert` lists the rules and sends a test.
@Suite struct AlertsEndToEndTests {
    /// The days of `local`'s HRV meter: 40 and 60 ms by turns from 90 days ago (the range 44.23–54.26 ms,
    /// `AlertChecksTests`), one measurement a day before now.
    static func plant(_ local: LocalHealthService, meter: String, days: ClosedRange<Int>, low: Set<Int>, calendar: Calendar, now: Date) async throws {
        let today = Day(now, in: calendar)
        for offset in days {
            let at = min(today.adding(days: offset).start(in: calendar).addingTimeInterval(12 * 3600), now.addingTimeInterval(-Double(1 - offset)))
            let rmssd: Double = low.contains(offset) ? 10 : offset % 2 == 0 ? 40 : 60
            _ = try await local.post(NewMessage(sdid: meter, ts: at.millisecondsSince1970, data: [Field.rmssd: .number(rmssd)]))
        }
    }

    @Test(arguments: StoreEngine.available)
    func hrvBelowTheNormalRangeForTwoDaysSendsOneNtfyMessageForTheEpisode(engine: StoreEngine) async throws {
        let receiver = try await AlertReceiver.start()
        try await ServerWorld.run(engine: engine) { world in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let now = Date()
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let meter = try await local.addDevice(name: "Welltory", typeID: BuiltInDeviceType.hrvMeter.deviceType.id).id
            // Yesterday low, the days before normal: one low day of a rule of two.
            try await Self.plant(local, meter: meter, days: -90...(-1), low: [-1], calendar: calendar, now: now)

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-alerts-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let stateFile = folder.appendingPathComponent("alerts-state.json")
            let rule = AlertRule(name: "hrv-low", condition: .hrvBelowNormal(days: 2), user: "alice",
                                 destination: .ntfy(receiver.url.appendingPathComponent("alice-hrv-5c1e"), priority: "high"))
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, rateLimit: nil)
            configuration.alerts = AlertSettings(rules: [rule], interval: .milliseconds(50), stateFile: stateFile,
                                                 delivery: AlertDelivery(transport: PulledHTTPTransport(timeout: 10)))
            let server = try await RunningServer.start(store: world.store, configuration: configuration)
            defer { Task { await server.stop() } }
            func rounds() -> Int { AlertStates.read(from: stateFile).rounds }
            func roundsPass(_ count: Int) async throws {
                let target = rounds() + count
                try #require(await Waiting.until { rounds() >= target }, "the server checks its rules every 50 ms")
            }

            try await roundsPass(3)
            #expect(receiver.all.isEmpty, "one low day does not fire a rule of two")
            #expect(AlertStates.read(from: stateFile).rules["hrv-low"]?.firing == false)

            // Today low too: the second day.
            try await Self.plant(local, meter: meter, days: 0...0, low: [0], calendar: calendar, now: now)
            try #require(await Waiting.until { !receiver.all.isEmpty }, "the episode is sent")
            let sent = try #require(receiver.all.first)
            #expect(sent.path == "/alice-hrv-5c1e")
            #expect(sent.header("Title") == "HRV below your normal range")
            #expect(sent.header("Priority") == "high")
            #expect(sent.header("Tags") == "warning,heart")
            #expect(sent.text.contains("below your normal range for 2 days"), "\(sent.text)")

            // Still low, and lower: the same episode, nothing more.
            _ = try await local.post(NewMessage(sdid: meter, ts: now.millisecondsSince1970, data: [Field.rmssd: .number(9)]))
            try await roundsPass(5)
            #expect(receiver.all.count == 1, "one message for the episode, none while it lasts")
            let state = try #require(AlertStates.read(from: stateFile).rules["hrv-low"])
            #expect(state.firing && state.sent == 1 && state.lastSent != nil && state.lastProblem == nil)
            let mode = try FileManager.default.attributesOfItem(atPath: stateFile.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            await server.stop()
        }
    }

    /// `hmon alert list` and `hmon alert test`, as a person runs them, against rules in config.toml.
    @Test func alertListShowsTheRulesAndAlertTestDeliversEachKind() async throws {
        let receiver = try await AlertReceiver.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-alert-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/hmon")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let secret = "4f1c0e9a7b2d4c6e8f0a1b3c5d7e9f11"
        let secretFile = home.appendingPathComponent("hook.secret")
        _ = FileManager.default.createFile(atPath: secretFile.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600])
        try """
            theme = "nord"

            [[alerts]]
            name = "hrv-low"
            when = "hrv-below-normal"
            user = "ana"
            ntfy = "\(receiver.url.absoluteString)/ana-topic-31d9"
            priority = "high"

            [[alerts]]
            name = "hook"
            when = "weight-goal"
            webhook = "\(receiver.url.absoluteString)/hook"
            secret-file = "\(secretFile.path)"

            [[alerts]]
            name = "broken"
            when = "link-silent"
            ntfy = "\(receiver.url.absoluteString)/broken"
            """.write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]

        let list = try await BuiltHMon.run(["alert", "list"], environment: environment)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("hrv-low: hrv-below-normal for ana to ntfy at 127.0.0.1: not checked yet"), "\(list.output)")
        #expect(list.output.contains("hook: weight-goal to webhook at 127.0.0.1 (signed)"), "\(list.output)")
        #expect(!list.output.contains("ana-topic-31d9") && !list.output.contains(secret), "no topic or secret on screen")

        let ntfy = try await BuiltHMon.run(["alert", "test", "hrv-low"], environment: environment)
        #expect(ntfy.status == 0, "\(ntfy.errors)")
        #expect(ntfy.output.contains("sent a test of hrv-low to ntfy at 127.0.0.1"), "\(ntfy.output)")
        let test = try #require(receiver.all.first { $0.path == "/ana-topic-31d9" })
        #expect(test.header("Title") == "hmon: test of hrv-low" && test.header("Priority") == "high")

        let hook = try await BuiltHMon.run(["alert", "test", "hook"], environment: environment)
        #expect(hook.status == 0, "\(hook.errors)")
        let signed = try #require(receiver.all.first { $0.path == "/hook" })
        #expect(PushSignature.isValid(signed.header(PushSignature.header), body: signed.body, secret: secret), "signed with the secret-file's secret")
        #expect(signed.text.contains("\"test\":true"), "\(signed.text)")

        let broken = try await BuiltHMon.run(["alert", "test", "broken"], environment: environment)
        #expect(broken.status == 1)
        #expect(broken.errors.contains("cannot deliver broken to ntfy at 127.0.0.1: ntfy at 127.0.0.1 answered HTTP 500"), "\(broken.errors)")

        let unknown = try await BuiltHMon.run(["alert", "test", "nope"], environment: environment)
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("no alert named nope in") && unknown.errors.contains("(there are: hrv-low, hook, broken)"), "\(unknown.errors)")

        // A rule that cannot be used stops the server before it starts, saying which and what to write.
        try "[[alerts]]\nname = \"x\"\nwhen = \"hrv\"\nntfy = \"https://ntfy.sh/t\"\n"
            .write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let serve = try await BuiltHMon.run(["serve", "--db", home.appendingPathComponent("s.sqlite").path, "--port", "0"], environment: environment)
        #expect(serve.status == 1)
        #expect(serve.errors.contains("[[alerts]] number 1 (\"x\"): when = \"hrv\" is not a rule"), "\(serve.errors)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("s.sqlite").path), "nothing opened")
    }
}
