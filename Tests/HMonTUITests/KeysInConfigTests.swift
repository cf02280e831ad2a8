import Foundation
@testable import HMonTUI
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// `[keys]` in config.toml: an action gets one key or several instead of its defaults, on every screen, and
/// help, the palette and the status bar follow; what cannot be taken is said with its line, and that action
/// keeps its keys (lazygit's keybinding config, btop's layouts for Colemak and Dvorak).
@MainActor
struct KeysInConfigTests {
    private func config(_ text: String) throws -> DashboardConfig {
        try DashboardConfig.parse(text, file: "config.toml")
    }

    @Test func eachEntryIsReadWithItsLine() throws {
        let read = try config("theme = \"nord\"\n\n[keys]\nenergy = \"E\"\nquit = [\"x\", \"q\"]\nundo = 3\n")
        #expect(read.keys == [KeySetting(action: "energy", keys: ["E"], place: "config.toml:4"),
                              KeySetting(action: "quit", keys: ["x", "q"], place: "config.toml:5")])
        #expect(read.keyProblems == ["config.toml:6: undo must be a key in quotes or a list of them, like undo = [\"x\", \"q\"]"])
    }

    @Test func remappedKeysActAndTheDefaultsOfThoseActionsGo() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let problems = dashboard.applyKeySettings(try config("[keys]\nenergy = \"E\"\nquit = [\"x\", \"q\"]\n").keys)
        #expect(problems.isEmpty, "\(problems)")
        _ = await dashboard.press(.char("3"))
        #expect(dashboard.app.screen != .energy, "3 was energy's default, replaced by E")
        _ = await dashboard.press(.char("E"))
        #expect(dashboard.app.screen == .energy)
        #expect(dashboard.helpSections.last?.bindings.contains { $0.action == .showTab(3) && $0.keyNames == "E" } == true)
        #expect(frame(of: dashboard, size: Size(width: 100, height: 30)).split(separator: "\n").first?.contains("E Energy") == true,
                "the tab bar names the key that shows the tab")
        _ = await dashboard.press(.char(":"))
        #expect(dashboard.paletteEntries.first { $0.title == "Energy" }?.keys == "E", "the palette shows the remapped key")
        _ = await dashboard.press(.escape)
        #expect(await dashboard.press(.char("x")) == .quit)
        #expect(await dashboard.press(.char("q")) == .quit)
        #expect(await dashboard.press(.ctrl("c")) == .keepGoing, "quit's keys are x and q now, as the file says")
    }

    @Test func anUnknownActionAnUnknownKeyAndATakenKeyAreSaidWithTheirLine() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let problems = dashboard.applyKeySettings(try config("[keys]\nfrobnicate = \"F\"\nrefresh = \"Hyper-Q\"\nenergy = \"T\"\nundo = \"u\"\n").keys)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("config.toml:2: no action \"frobnicate\"") })
        #expect(problems.contains { $0.hasPrefix("config.toml:3: \"Hyper-Q\" is no key hmon knows") })
        #expect(problems.contains { $0.hasPrefix("config.toml:4: T is already \"next colour theme\" (Everywhere)") })
        #expect(problems.contains { $0.hasPrefix("config.toml:5: u is already \"switch kg / lb\" (Weights)") })
        _ = await dashboard.press(.char("3"))
        #expect(dashboard.app.screen == .energy, "energy kept its default key")
    }

    @Test func keyNamesAreReadAsTheHelpPrintsThem() {
        #expect(KeyName.key(named: "E") == .char("E"))
        #expect(KeyName.key(named: ":") == .char(":"))
        #expect(KeyName.key(named: "ctrl-x") == .ctrl("x") && KeyName.key(named: "Ctrl-X") == .ctrl("x"))
        #expect(KeyName.key(named: "F5") == .function(5) && KeyName.key(named: "f13") == nil)
        #expect(KeyName.key(named: "PgDn") == .pageDown && KeyName.key(named: "space") == .char(" "))
        #expect(KeyName.key(named: "↑") == .up && KeyName.key(named: "Shift-Tab") == .backTab)
        #expect(KeyName.key(named: "\u{1b}") == nil && KeyName.key(named: "") == nil)
    }
}
