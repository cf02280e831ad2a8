import Foundation
import TestSupport
import Testing

/// The built `hmon keys` in a real terminal (tmux): however it ends, the shell gets its terminal back.
/// `swift test` builds the `hmon` executable before running tests, next to the test bundle; when it is
/// not there the test fails saying where it looked (`BuiltProducts.Missing`).
@Suite(.heavy, .serialized)
struct TerminalRestoreTests {
    static func hmon() throws -> String {
        try BuiltHMon.url().path
    }

    /// Starts `hmon keys` from the shell, recording the terminal modes before and after and hmon's exit status.
    func startKeys(in tmux: TmuxSession, environment: String = "") async throws {
        let hmon = try Self.hmon()
        try await tmux.type("stty -g > before; ulimit -c 0; \(environment) sh -c 'echo $$ > pid; exec \(hmon) keys';"
                      + " echo \"exit=$?\"; stty -g > after", pressingEnter: true)
        try await tmux.waitForScreen("the keys screen") { $0.contains("press keys to see how hmon reads them") }
        try await tmux.press("F5", "x", "BTab")
        try await tmux.waitForScreen("the decoded keys") { $0.contains("F5") && $0.contains("U+0078") && $0.contains("Shift-Tab") }
    }

    func hmonProcess(in tmux: TmuxSession) async throws -> pid_t {
        let text = try await tmux.waitForFile("pid")
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The modes are as before, the full screen is gone, and the shell answers.
    func expectRestored(_ tmux: TmuxSession, exitStatus: Int) async throws {
        try await tmux.waitForScreen("exit=\(exitStatus)") { $0.contains("exit=\(exitStatus)") }
        #expect(try await tmux.waitForFile("after") == (try await tmux.waitForFile("before")))
        try await tmux.type("echo shell-$((6*7))", pressingEnter: true)
        let screen = try await tmux.waitForScreen("the shell answering") { $0.contains("shell-42") }
        #expect(!screen.contains("press keys to see how hmon reads them"))
    }

    @Test(.needsTmux) func sigtermRestoresTheTerminalAndExitsWith143() async throws {
        let tmux = try await TmuxSession()
        defer { tmux.shutDown() }
        try await startKeys(in: tmux)
        kill(try await hmonProcess(in: tmux), SIGTERM)
        try await expectRestored(tmux, exitStatus: 143)
    }

    @Test(.needsTmux) func hangupRestoresTheTerminal() async throws {
        let tmux = try await TmuxSession()
        defer { tmux.shutDown() }
        try await startKeys(in: tmux)
        kill(try await hmonProcess(in: tmux), SIGHUP)
        try await expectRestored(tmux, exitStatus: 129)
    }

    @Test(.needsTmux) func quittingWithQRestoresTheTerminal() async throws {
        let tmux = try await TmuxSession()
        defer { tmux.shutDown() }
        try await startKeys(in: tmux)
        try await tmux.press("q")
        try await expectRestored(tmux, exitStatus: 0)
    }

    @Test(.needsTmux) func aCrashRestoresTheTerminalAndStillCrashes() async throws {
        let tmux = try await TmuxSession()
        defer { tmux.shutDown() }
        try await startKeys(in: tmux, environment: "SWIFT_BACKTRACE=enable=no")
        kill(try await hmonProcess(in: tmux), SIGSEGV)
        try await expectRestored(tmux, exitStatus: 139)
    }

    @Test(.needsTmux) func resizingTheWindowRedrawsAtTheNewSize() async throws {
        let tmux = try await TmuxSession()
        defer { tmux.shutDown() }
        try await startKeys(in: tmux)
        try await tmux.resize(width: 100, height: 30)
        try await tmux.waitForScreen("the new size") { $0.contains("100×30") }
        try await tmux.press("q")
        try await expectRestored(tmux, exitStatus: 0)
    }

    @Test func withoutATerminalItSaysSoAndExits1() async throws {
        let finished = try await SpawnedProcess.running(URL(fileURLWithPath: try Self.hmon()), ["keys"])
        #expect(finished.status == 1)
        #expect(finished.errors == "hmon needs a terminal; try `hmon snapshot`\n")
    }
}

extension Trait where Self == ConditionTrait {
    /// A test that drives a real terminal in tmux: without tmux it is skipped, with the reason in the report.
    static var needsTmux: Self { .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux") }
}
