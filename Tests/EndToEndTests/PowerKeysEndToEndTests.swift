import Foundation
import TestSupport
import Testing

/// The power user's keyboard in a real terminal (tmux): the palette opens a screen by part of its name,
/// `[keys]` in config.toml remaps keys (an unknown action said with its line), and config.toml edited while
/// hmon runs recolours it within a second, no restart.
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct PowerKeysEndToEndTests {
    @Test func thePaletteRemappedKeysAndALiveThemeEdit() async throws {
        let tmux = try await TmuxSession.endToEnd()
        let configFolder = tmux.folder.appendingPathComponent("config/hmon")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        let config = configFolder.appendingPathComponent("config.toml")
        try "[keys]\nenergy = \"E\"\nquit = [\"x\", \"q\"]\nfrobnicate = \"Z\"\n".write(to: config, atomically: true, encoding: .utf8)
        let store = tmux.folder.appendingPathComponent("demo.sqlite").path
        try await tmux.type("\(builtHmon().path) --demo --db '\(store)'; echo \"exit=$?\"", pressingEnter: true)
        try await tmux.waitForScreen("the devices screen, the unknown action said with its line") {
            $0.contains("Bathroom scale") && $0.contains("config.toml:4: no action \"frobnicate\"")
        }

        try await tmux.type(":")
        try await tmux.waitForScreen("the palette") { $0.contains("Find a screen, an action or a date") }
        try await tmux.type("insi")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the insights screen") { $0.contains("Insights") && !$0.contains("Find a screen") && $0.contains("┌─ Insights") }

        try await tmux.type("E")
        try await tmux.waitForScreen("E opens energy") { $0.contains("┌─ Energy") || $0.contains("Energy ·") }

        // An edit while it runs: the theme changes the colours within a second, and the unknown action is gone.
        let before = try await tmux.styledScreen()
        try "theme = \"nord\"\n[keys]\nenergy = \"E\"\nquit = [\"x\", \"q\"]\n".write(to: config, atomically: true, encoding: .utf8)
        try await tmux.waitForScreen("the edit applied") { $0.contains("config.toml applied") }
        let after = try await tmux.styledScreen()
        #expect(after != before, "the nord theme recoloured the screen")

        try await tmux.type("x")
        try await tmux.waitForScreen("x quit") { $0.contains("exit=0") }
    }
}
