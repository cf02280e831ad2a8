import Foundation
import TestSupport
import Testing

/// The built `hmon` in a real terminal (tmux) on a temporary demo store: what a person sees and types.
/// Without tmux the suite is skipped, and says so; a missing `hmon` fails each test (see `builtHmon()`).
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct DashboardEndToEndTests {

    /// Starts hmon on a demo store (a file in the session's folder, or a new database on the tests'
    /// PostgreSQL), signs in as demo and opens the scale's weights. Returns the store's `--db`.
    private func openWeights(in tmux: TmuxSession, engine: StoreEngine = .sqlite, options: String = "") async throws -> String {
        let file = tmux.folder.appendingPathComponent("demo.sqlite").path
        var database = file
        if engine == .postgres {
            // The demo is made in a file; `hmon db copy` takes it to PostgreSQL, as docs/server.md says.
            database = try await TestPostgres.newDatabase()
            try await tmux.runOutside(builtHmon(), ["demo", "--db", file])
            try await tmux.runOutside(builtHmon(), ["db", "copy", file, database])
        }
        let demo = engine == .sqlite ? "--demo " : ""
        try await tmux.type("stty -g > stty-before; HMON_EVENT_TRACE=events \(builtHmon().path) \(demo)--db '\(database)' \(options); stty -g > stty-after",
                      pressingEnter: true)
        if engine == .postgres {
            try await tmux.waitForScreen("the sign-in form") { $0.contains("Sign in") }
            try await tmux.type("demo")
            try await tmux.press("Tab")
            try await tmux.type("demo")
            try await tmux.press("Enter")
        }
        // `--demo` opens signed in as the documented demo account: no password asked (issue 28, item 9).
        try await tmux.waitForScreen("the devices screen") { $0.contains("Bathroom scale") && $0.contains("See weight") }
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the weights of the scale") { $0.contains("Weight in kg · Bathroom scale") && $0.contains("1 of ") }
        return database
    }

    /// The first reading row of the weight table.
    private func topRow(_ screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains("› ") || $0.contains("● ") }.map(String.init) ?? ""
    }

    /// `--force`: the weights are chosen to stand out in the table, beyond the typo check's bound.
    private func addWeight(_ kg: String, at time: String, database: String, tmux: TmuxSession) async throws {
        try await tmux.runOutside(builtHmon(), ["add", "weight", kg, "--at", time, "--db", database, "--user", "demo", "--force"])
    }

    @Test func aReadingAddedElsewhereShowsOnTopAfterRAndTheTerminalIsRestored() async throws {
        let tmux = try await TmuxSession.endToEnd()
        // Live updates off: only R can bring the reading in, so the test fails if R does nothing.
        let database = try await openWeights(in: tmux, options: "--no-live-updates")
        let tomorrow = Self.localTime(hoursFromNow: 1)
        try await addWeight("64.2", at: tomorrow, database: database, tmux: tmux)
        try await tmux.waitForTicks(2, after: tmux.traceLines().count)   // two ticks drawn since the reading was added
        #expect(!topRow(try await tmux.screen()).contains("64.2"), "nothing refreshes by itself with live updates off")
        try await tmux.type("R")
        let screen = try await tmux.waitForScreen("the new reading on top") { topRow($0).contains("64.2") }
        #expect(topRow(screen).contains("●"), "the new row is marked")

        try await tmux.resize(width: 40, height: 12)
        try await tmux.waitForScreen("the size message") { $0.contains("Terminal too small") && $0.contains("have 40×12") }
        try await tmux.resize(width: 100, height: 30)
        try await tmux.waitForScreen("the table again") { $0.contains("Weight in kg") && topRow($0).contains("64.2") }

        try await tmux.type("q")
        try await tmux.waitForScreen("the shell prompt after hmon") { $0.split(separator: "\n").last?.hasPrefix("e2e$") == true
            && !$0.contains("Weight in kg") }
        try await tmux.type("cmp -s stty-before stty-after && echo SAME-MODES || echo CHANGED-MODES", pressingEnter: true)
        let after = try await tmux.waitForScreen("the modes compared") { $0.contains("SAME-MODES") || $0.contains("CHANGED-MODES") }
        #expect(after.contains("SAME-MODES"), "stty -g is the same before and after hmon")
    }

    /// On PostgreSQL the other process's write moves the database's change counter, which the dashboard
    /// looks at as it looks at an SQLite file's.
    @Test(arguments: StoreEngine.available) func aReadingAddedElsewhereShowsWithoutAKeyPress(_ engine: StoreEngine) async throws {
        let tmux = try await TmuxSession.endToEnd()
        let database = try await openWeights(in: tmux, engine: engine)
        try await addWeight("63.7", at: Self.localTime(hoursFromNow: 1), database: database, tmux: tmux)
        let screen = try await tmux.waitForScreen("the reading to arrive live") { topRow($0).contains("63.7") }
        #expect(topRow(screen).contains("●"))
        try await tmux.type("q")
        try await tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
    }

    @Test func anIdleDashboardWritesNothingToTheTerminal() async throws {
        let tmux = try await TmuxSession.endToEnd()
        _ = try await openWeights(in: tmux)
        try await tmux.waitForTicks(1, after: 0)   // the first frame's loads are in and drawn
        // Everything hmon writes to its terminal from now on, as tmux receives it.
        let log = tmux.folder.appendingPathComponent("output.log")
        func written() -> Int { (try? Data(contentsOf: log))?.count ?? 0 }
        _ = try await tmux.tmux(["pipe-pane", "-o", "cat >> \(log.path)"])
        try await tmux.waitForTicks(4, after: tmux.traceLines().count)   // four looks at the store, four frames drawn
        let idle = written()
        try await tmux.type("j")                   // a key that changes the selection writes a few cells
        _ = try await tmux.waitForScreen("the second row selected") { $0.contains("2 of ") }
        await Waiting.until { written() > idle }   // what tmux showed has reached the pipe's file too
        let afterKey = written()
        try await tmux.resize(width: 100, height: 29)   // a new size: the whole frame is written
        _ = try await tmux.waitForScreen("the frame at its new size") { $0.split(separator: "\n").count <= 29 && $0.contains("2 of ") }
        await Waiting.until { (written() - afterKey) > afterKey * 4 }
        let wholeFrame = written() - afterKey
        _ = try await tmux.tmux(["pipe-pane"])
        #expect(idle == 0, "\(idle) bytes written while idle")
        #expect(afterKey > 0, "the pipe sees what hmon writes")
        #expect(afterKey * 4 < wholeFrame, "moving the selection rewrites two rows (\(afterKey) bytes), not the frame (\(wholeFrame))")
        try await tmux.type("q")
        try await tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
    }

    /// Issue 28, item 5: a typo is caught by a y/n question, and U undoes it.
    @Test func aTypoIsCaughtAndCtrlZUndoesIt() async throws {
        let tmux = try await TmuxSession.endToEnd()
        _ = try await openWeights(in: tmux)
        try await tmux.type("a")
        try await tmux.type("27.2")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the question") { $0.contains("27.2 kg is ") && $0.contains("under your trend (") && $0.contains("— save? y/n") }
        try await tmux.type("n")
        try await tmux.waitForScreen("the prompt again, nothing saved") { $0.contains("New weight in kg") && !$0.contains("save? y/n")
            && !topRow($0).contains("27.2") }
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the question again") { $0.contains("save? y/n") }
        try await tmux.type("y")
        try await tmux.waitForScreen("the typo saved, on top") { topRow($0).contains("27.2") }
        try await tmux.type("U")
        // The status line says it at once; the table follows when its reload is in.
        try await tmux.waitForScreen("the undo, said, and the typo gone") {
            $0.contains("undid: removed the weigh-in of 27.2 kg") && !topRow($0).contains("27.2")
        }
        try await tmux.type("q")
        try await tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
    }

    @Test func withoutATerminalHmonSaysWhatToDoInstead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Standard input a pipe (as from a script), not a terminal.
        let finished = try await SpawnedProcess.running(try builtHmon(), ["--db", folder.appendingPathComponent("x.sqlite").path], stdin: "")
        let message = finished.errors
        #expect(finished.status == 1)
        #expect(message.contains("hmon needs a terminal; try `hmon snapshot`"))
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing is written")
    }

    /// "2026-11-22 19:30": a local time an hour from now, so the reading is the newest.
    static func localTime(hoursFromNow hours: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date().addingTimeInterval(hours * 3600))
    }
}
