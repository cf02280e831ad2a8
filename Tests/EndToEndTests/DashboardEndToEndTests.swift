import Foundation
import TestSupport
import Testing

/// The built `hmon` in a real terminal (tmux) on a temporary demo store: what a person sees and types.
/// Without tmux the suite is skipped, and says so; a missing `hmon` fails each test (see `builtHmon()`).
@Suite(.enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct DashboardEndToEndTests {

    /// Starts hmon on a demo store (a file in the session's folder, or a new database on the tests'
    /// PostgreSQL), signs in as demo and opens the scale's weights. Returns the store's `--db`.
    private func openWeights(in tmux: TmuxSession, engine: StoreEngine = .sqlite, options: String = "") throws -> String {
        let file = tmux.folder.appendingPathComponent("demo.sqlite").path
        var database = file
        if engine == .postgres {
            // The demo is made in a file; `hmon db copy` takes it to PostgreSQL, as docs/server.md says.
            database = try TestPostgres.newDatabaseURL()
            try tmux.runOutside(builtHmon(), ["demo", "--db", file])
            try tmux.runOutside(builtHmon(), ["db", "copy", file, database])
        }
        let demo = engine == .sqlite ? "--demo " : ""
        try tmux.type("stty -g > stty-before; \(builtHmon().path) \(demo)--db '\(database)' \(options); stty -g > stty-after",
                      pressingEnter: true)
        if engine == .postgres {
            try tmux.waitForScreen("the sign-in form") { $0.contains("Sign in") }
            try tmux.type("demo")
            try tmux.press("Tab")
            try tmux.type("demo")
            try tmux.press("Enter")
        }
        // `--demo` opens signed in as the documented demo account: no password asked (issue 28, item 9).
        try tmux.waitForScreen("the devices screen") { $0.contains("Bathroom scale") && $0.contains("See weight") }
        try tmux.press("Enter")
        try tmux.waitForScreen("the weights of the scale") { $0.contains("Weight in kg · Bathroom scale") && $0.contains("1 of ") }
        return database
    }

    /// The first reading row of the weight table.
    private func topRow(_ screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains("› ") || $0.contains("● ") }.map(String.init) ?? ""
    }

    /// `--force`: the weights are chosen to stand out in the table, beyond the typo check's bound.
    private func addWeight(_ kg: String, at time: String, database: String, tmux: TmuxSession) throws {
        try tmux.runOutside(builtHmon(), ["add", "weight", kg, "--at", time, "--db", database, "--user", "demo", "--force"])
    }

    @Test func aReadingAddedElsewhereShowsOnTopAfterRAndTheTerminalIsRestored() throws {
        let tmux = try TmuxSession.endToEnd()
        // Live updates off: only R can bring the reading in, so the test fails if R does nothing.
        let database = try openWeights(in: tmux, options: "--no-live-updates")
        let tomorrow = Self.localTime(hoursFromNow: 1)
        try addWeight("64.2", at: tomorrow, database: database, tmux: tmux)
        Thread.sleep(forTimeInterval: 2.5)   // two ticks of the event loop
        #expect(!topRow(try tmux.screen()).contains("64.2"), "nothing refreshes by itself with live updates off")
        try tmux.type("R")
        let screen = try tmux.waitForScreen("the new reading on top") { topRow($0).contains("64.2") }
        #expect(topRow(screen).contains("●"), "the new row is marked")

        try tmux.resize(width: 40, height: 12)
        try tmux.waitForScreen("the size message") { $0.contains("Terminal too small") && $0.contains("have 40×12") }
        try tmux.resize(width: 100, height: 30)
        try tmux.waitForScreen("the table again") { $0.contains("Weight in kg") && topRow($0).contains("64.2") }

        try tmux.type("q")
        try tmux.waitForScreen("the shell prompt after hmon") { $0.split(separator: "\n").last?.hasPrefix("e2e$") == true
            && !$0.contains("Weight in kg") }
        try tmux.type("cmp -s stty-before stty-after && echo SAME-MODES || echo CHANGED-MODES", pressingEnter: true)
        let after = try tmux.waitForScreen("the modes compared") { $0.contains("SAME-MODES") || $0.contains("CHANGED-MODES") }
        #expect(after.contains("SAME-MODES"), "stty -g is the same before and after hmon")
    }

    /// On PostgreSQL the other process's write moves the database's change counter, which the dashboard
    /// looks at as it looks at an SQLite file's.
    @Test(arguments: StoreEngine.available) func aReadingAddedElsewhereShowsWithoutAKeyPress(_ engine: StoreEngine) throws {
        let tmux = try TmuxSession.endToEnd()
        let database = try openWeights(in: tmux, engine: engine)
        try addWeight("63.7", at: Self.localTime(hoursFromNow: 1), database: database, tmux: tmux)
        let screen = try tmux.waitForScreen("the reading to arrive live", timeout: 10) { topRow($0).contains("63.7") }
        #expect(topRow(screen).contains("●"))
        try tmux.type("q")
        try tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
    }

    @Test func anIdleDashboardWritesNothingToTheTerminal() throws {
        let tmux = try TmuxSession.endToEnd()
        _ = try openWeights(in: tmux)
        Thread.sleep(forTimeInterval: 1.5)   // the first frame's loads are in and drawn
        // Everything hmon writes to its terminal from now on, as tmux receives it.
        let log = tmux.folder.appendingPathComponent("output.log")
        _ = try tmux.tmux(["pipe-pane", "-o", "cat >> \(log.path)"])
        Thread.sleep(forTimeInterval: 4.5)   // four ticks: four looks at the store, four frames drawn
        let idle = (try? Data(contentsOf: log))?.count ?? 0
        try tmux.type("j")                   // a key that changes the selection writes a few cells
        _ = try tmux.waitForScreen("the second row selected") { $0.contains("2 of ") }
        Thread.sleep(forTimeInterval: 0.3)
        let afterKey = (try? Data(contentsOf: log))?.count ?? 0
        try tmux.resize(width: 100, height: 29)   // a new size: the whole frame is written
        _ = try tmux.waitForScreen("the frame at its new size") { $0.split(separator: "\n").count <= 29 && $0.contains("2 of ") }
        Thread.sleep(forTimeInterval: 0.5)
        let wholeFrame = ((try? Data(contentsOf: log))?.count ?? 0) - afterKey
        _ = try tmux.tmux(["pipe-pane"])
        #expect(idle == 0, "\(idle) bytes written while idle")
        #expect(afterKey > 0, "the pipe sees what hmon writes")
        #expect(afterKey * 4 < wholeFrame, "moving the selection rewrites two rows (\(afterKey) bytes), not the frame (\(wholeFrame))")
        try tmux.type("q")
        try tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
    }

    /// Issue 28, item 5: a typo is caught by a y/n question, and U undoes it.
    @Test func aTypoIsCaughtAndCtrlZUndoesIt() throws {
        let tmux = try TmuxSession.endToEnd()
        _ = try openWeights(in: tmux)
        try tmux.type("a")
        try tmux.type("27.2")
        try tmux.press("Enter")
        try tmux.waitForScreen("the question") { $0.contains("27.2 kg is ") && $0.contains("under your trend (") && $0.contains("— save? y/n") }
        try tmux.type("n")
        try tmux.waitForScreen("the prompt again, nothing saved") { $0.contains("New weight in kg") && !$0.contains("save? y/n")
            && !topRow($0).contains("27.2") }
        try tmux.press("Enter")
        try tmux.waitForScreen("the question again") { $0.contains("save? y/n") }
        try tmux.type("y")
        try tmux.waitForScreen("the typo saved, on top") { topRow($0).contains("27.2") }
        try tmux.type("U")
        // The status line says it at once; the table follows when its reload is in.
        try tmux.waitForScreen("the undo, said, and the typo gone") {
            $0.contains("undid: removed the weigh-in of 27.2 kg") && !topRow($0).contains("27.2")
        }
        try tmux.type("q")
        try tmux.waitForScreen("the shell prompt") { !$0.contains("Weight in kg") }
    }

    @Test func withoutATerminalHmonSaysWhatToDoInstead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Standard input a pipe (as from a script), not a terminal.
        let finished = try SpawnedProcess.run(try builtHmon(), ["--db", folder.appendingPathComponent("x.sqlite").path], stdin: "")
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
