import Foundation
import TestSupport
import Testing

/// Ctrl-Z in the dashboard does what it does in every terminal program: hmon stops, the shell has the
/// terminal back as it was, and `fg` brings the dashboard back, drawn whole.
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct SuspendEndToEndTests {
    @Test func ctrlZSuspendsAndFgRedraws() async throws {
        let tmux = try await TmuxSession.endToEnd()
        let file = tmux.folder.appendingPathComponent("demo.sqlite").path
        try await tmux.type("stty -g > stty-before; \(try builtHmon().path) --demo --db '\(file)'", pressingEnter: true)
        try await tmux.waitForScreen("the devices screen") { $0.contains("Bathroom scale") && $0.contains("1 Devices") }
        try await tmux.press("C-z")
        try await tmux.waitForScreen("the shell, with hmon stopped") { $0.contains("Stopped") && !$0.contains("1 Devices") }
        try await tmux.type("stty -g > stty-stopped", pressingEnter: true)
        let before = try await tmux.waitForFile("stty-before")
        let stopped = try await tmux.waitForFile("stty-stopped")
        #expect(stopped == before, "the terminal's modes are the shell's own while hmon is stopped")
        try await tmux.type("fg", pressingEnter: true)
        try await tmux.waitForScreen("the dashboard again, drawn whole") {
            $0.contains("1 Devices") && $0.contains("Bathroom scale") && !$0.contains("Stopped")
        }
        try await tmux.type("q")
        try await tmux.waitForScreen("the shell after quitting") { !$0.contains("1 Devices") }
    }
}
