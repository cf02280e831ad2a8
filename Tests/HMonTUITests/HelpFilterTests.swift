import Foundation
@testable import HMonTUI
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// `?` then typing narrows the help to the keys whose words hold the text, as lazygit's keybindings menu
/// filters; `@` then a key shows what that key does on this screen. Read off the drawn frame.
@MainActor
struct HelpFilterTests {
    let size = Size(width: 80, height: 24)

    @Test func typingNarrowsTheHelpToMatchingKeysAndBackspaceWidensIt() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("?"))
        await dashboard.type("und")
        let kept = dashboard.shownHelpSections.flatMap(\.bindings)
        #expect(kept.map(\.action) == [.undo], "\(kept.map(\.help))")
        let shown = frame(of: dashboard, size: size)
        #expect(shown.contains("Keys with \"und\"") && shown.contains("undo your last add, edit or delete"))
        #expect(!shown.contains("refresh now"))
        _ = await dashboard.press(.backspace)
        _ = await dashboard.press(.backspace)
        _ = await dashboard.press(.backspace)
        #expect(dashboard.ui.helpFilter == nil && dashboard.ui.showsHelp, "back to the whole help, still open")
        #expect(frame(of: dashboard, size: size).contains("refresh now"))
        _ = await dashboard.press(.escape)
        #expect(!dashboard.ui.showsHelp)
        await dashboard.type("q")
        #expect(dashboard.app.screen == .weights, "closed help: keys act again (q asks nothing, it is typed nowhere)")
    }

    @Test func atThenAKeyShowsWhatThatKeyDoesOnThisScreen() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("?"))
        _ = await dashboard.press(.char("@"))
        #expect(frame(of: dashboard, size: size).contains("Press the key to look up"))
        _ = await dashboard.press(.char("u"))
        let kept = dashboard.shownHelpSections.flatMap(\.bindings)
        #expect(kept.count == 1 && kept.first?.help == "switch kg / lb", "\(kept.map(\.help))")
        #expect(frame(of: dashboard, size: size).contains("switch kg / lb"))
    }

    @Test func theFilteredHelpAt80x24() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("?"))
        await dashboard.type("day")
        try expectSnapshot(dashboard.frame(size: size), named: "help-filtered-80x24")
    }
}
