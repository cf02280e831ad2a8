import Foundation
import TestSupport
import Testing

/// The dashboard against `hmon serve` in a real terminal (tmux), following the server's change feed
/// (issue 27, items 3 and 5): a reading posted to the server shows without a key press; when the server
/// stops the status bar says "offline since", and when it is back on the same port the dashboard follows
/// the feed again by itself. The waits are generous: the latency is `Benchmarks/feed-latency.sh`'s to measure.
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct RemoteDashboardEndToEndTests {
    /// The first reading row of the weight table.
    private func topRow(_ screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains("› ") || $0.contains("● ") }.map(String.init) ?? ""
    }

    /// Starts `hmon serve` on the demo store in the background; returns its port and the name of its log.
    private func serve(_ tmux: TmuxSession, database: String, port: Int) async throws -> (port: Int, log: String) {
        let log = "serve-\(UUID().uuidString.prefix(6)).log"
        try await tmux.runOutside(URL(fileURLWithPath: "/bin/sh"), ["-c",
            "cd '\(tmux.folder.path)'; '\(try builtHmon().path)' serve --db '\(database)' --port \(port) \(TestServerLimits.serveOptions.joined(separator: " ")) > \(log) 2>&1 & echo $! > serve.pid"])
        let banner = try await tmux.waitForFile(log)
        guard let address = banner.split(whereSeparator: { $0 == " " || $0 == "\n" }).first(where: { $0.hasPrefix("http://") }),
              let served = Int(address.split(separator: ":").last ?? "") else {
            throw ServeDidNotStart(description: "hmon serve did not say where it listens: \(banner)")
        }
        return (served, log)
    }

    /// Waits until the server's log shows the dashboard's change feed open, so what is posted next reaches the
    /// dashboard through the feed and not through the reload that follows the feed's opening.
    private func waitForFeed(_ tmux: TmuxSession, log: String) async throws {
        let path = tmux.folder.appendingPathComponent(log).path
        let opened = await Waiting.until {
            (try? String(contentsOfFile: path, encoding: .utf8))?.contains("GET /v1.1/hmon/changes 200") == true
        }
        if opened { return }
        throw ServeDidNotStart(description: "the dashboard never opened the change feed: \((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")")
    }

    /// SIGTERM, as Ctrl-C: the server stops gracefully, ending the dashboards' feeds. Fails (after killing
    /// it) if it has not stopped within 10 s: an open feed must never hold a stop up.
    private func stopServer(_ tmux: TmuxSession) async throws {
        let pid = try String(contentsOf: tmux.folder.appendingPathComponent("serve.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try await tmux.runOutside(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill \(pid); for i in $(seq 100); do kill -0 \(pid) 2>/dev/null || exit 0; "
            + "sleep 0.1; done; kill -9 \(pid); echo 'hmon serve did not stop' >&2; exit 1"])
    }

    @Test func aPostedReadingShowsOnTheRemoteDashboardWhichFollowsTheServerAcrossARestart() async throws {
        let (shown, after) = try await walkAcrossARestart()
        #expect(topRow(shown).contains("●"), "the new row is marked")
        #expect(topRow(after).contains("●"))
    }

    /// The screen when the posted reading shows, and when the one posted after the restart does.
    private func walkAcrossARestart() async throws -> (String, String) {
        let tmux = try await TmuxSession.endToEnd()
        let database = tmux.folder.appendingPathComponent("demo.sqlite").path
        try await tmux.runOutside(builtHmon(), ["demo", "--db", database])
        let (port, log) = try await serve(tmux, database: database, port: 0)
        // Whatever happens, no server is left running (the one of the moment: serve.pid names it).
        defer { _ = try? ChildProcess.run("/bin/sh", ["-c", "kill -9 $(cat '\(tmux.folder.path)/serve.pid') 2>/dev/null; true"]) }
        let server = "http://127.0.0.1:\(port)"
        let link = try await tmux.runOutside(builtHmon(), ["link", "add", "health-auto-export", "--user", "demo", "--db", database,
                                                     "--base-url", server, "--allow-loopback"])
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.contains("/health-auto-export/") }.map(String.init)
        guard let healthAutoExport = link else { throw ServeDidNotStart(description: "hmon link add printed no link") }

        try await tmux.type("\(builtHmon().path) --server \(server)", pressingEnter: true)
        try await tmux.waitForScreen("the sign-in form") { $0.contains("Sign in") }
        try await tmux.type("demo")
        try await tmux.press("Tab")
        try await tmux.type("demo")
        try await tmux.press("Enter")
        // The server checks the password (scrypt) on one low-priority thread: on a machine the whole test run
        // keeps busy that can take longer than the client's 10 s, and the form says so. A person types the
        // password again; so does this walk, once. What it tests comes after the sign-in.
        let signedIn = try await tmux.waitForScreen("the devices screen, or the sign-in timed out") {
            ($0.contains("Bathroom scale") && $0.contains("See weight")) || $0.contains("no answer")
        }
        if !signedIn.contains("Bathroom scale") {
            try await tmux.type("demo")
            try await tmux.press("Enter")
        }
        try await tmux.waitForScreen("the devices screen") { $0.contains("Bathroom scale") && $0.contains("See weight") }
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the weights of the scale") { $0.contains("Weight in kg · Bathroom scale") && $0.contains("1 of ") }

        try await waitForFeed(tmux, log: log)
        // The phone's push, as docs/health-auto-export.md posts it with curl: a weigh-in from the scale, an hour ahead so it is the newest.
        let payload = #"{"data": {"metrics": [{"name": "weight_body_mass", "units": "kg", "data": [{"qty": 63.7, "date": ""#
            + Self.appTime(hoursFromNow: 1) + #"", "source": "Bathroom scale"}]}], "workouts": []}}"#
        try payload.write(to: tmux.folder.appendingPathComponent("payload.json"), atomically: true, encoding: .utf8)
        try await tmux.runOutside(URL(fileURLWithPath: "/bin/sh"), ["-c",
            "cd '\(tmux.folder.path)' && curl -s -f -o /dev/null -H 'Content-Type: application/json' --data-binary @payload.json '\(healthAutoExport)'"])
        let shown = try await tmux.waitForScreen("the posted reading, without a key press") { topRow($0).contains("63.7") }

        try await stopServer(tmux)
        try await tmux.waitForScreen("the offline line") { $0.contains("offline since") }
        let restarted = try await serve(tmux, database: database, port: port)
        try await waitForFeed(tmux, log: restarted.log)
        try await tmux.runOutside(URL(fileURLWithPath: "/bin/sh"), ["-c",
            "echo demo | '\(try builtHmon().path)' add weight 63.2 --at '\(DashboardEndToEndTests.localTime(hoursFromNow: 2))' "
            + "--server \(server) --user demo --password-stdin --force"])
        let after = try await tmux.waitForScreen("the reading posted after the restart, online again") {
            topRow($0).contains("63.2") && !$0.contains("offline since")
        }
        try await tmux.type("q")
        try await tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
        try await stopServer(tmux)
        return (shown, after)
    }

    /// "2026-11-22 19:30:00 +0100": Health Auto Export's date format, `hours` from now.
    static func appTime(hoursFromNow hours: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: Date().addingTimeInterval(hours * 3600))
    }
}

struct ServeDidNotStart: Error, CustomStringConvertible {
    var description: String
}
