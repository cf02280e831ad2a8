import Foundation
@testable import HMonTUI
import HealthViewModels
import Terminal
import Testing

/// Issue 11, item 7: every key a screen's help lists does something there. For each registered screen, each
/// key of its table (its own and the global ones it does not shadow) is pressed on the demo store; the
/// frame must change, hmon must quit, or work must start (a reload). The few keys that rightly change
/// nothing in this state are listed with the reason, so a key that silently stops working fails here.
@MainActor
struct KeyTableWalkTests {
    /// Keys that change nothing in the state the walk presses them in, and why that is right.
    static let documentedNoOps: [String: String] = [
        "devices/back": "Devices is where Esc ends: there is nothing to go back to",
        "energy/next day": "the walk starts on today, the last day there is (→ works on any earlier day)",
    ]

    /// Keys that need a state first: moving up needs a row below the top, a shorter span a longer one.
    static let preparation: [Action: [Key]] = [.up: [.down], .top: [.down], .pageUp: [.pageDown], .halfPageUp: [.ctrl("d")], .shorterSpan: [.char("]")]]

    @Test(arguments: ScreenRegistry.tabs.map(\.id.rawValue))
    func everyListedKeyDoesSomething(screen: String) async throws {
        let world = try await DemoWorld()
        let size = Size(width: 120, height: 40)
        let probe = try await world.dashboard()
        let tab = try #require(probe.screens.firstIndex { $0.id.rawValue == screen }) + 1
        _ = await probe.press(.char(Character(String(tab))))
        let table = probe.activeTable
        var silent: [String] = []
        for binding in table {
            guard let key = binding.keys.first else { continue }
            // A fresh dashboard for each key, on this screen, so no key depends on the one before.
            let dashboard = try await world.dashboard()
            dashboard.cycleTheme = { "nord" }
            _ = await dashboard.press(.char(Character(String(tab))))
            for step in Self.preparation[binding.action] ?? [] { _ = await dashboard.press(step) }
            // With the styles: a key that only moves a highlight (the overview's chosen line) changes them alone.
            func drawn() -> String {
                dashboard.resize(to: size)
                let canvas = dashboard.frame(size: size)
                return DemoWorld.stable(canvas.renderPlain()) + canvas.renderStyled(attributes: true)
            }
            let before = drawn()
            let outcome = dashboard.handle(key)
            let startedWork = dashboard.isBusy
            await dashboard.settle()
            let after = drawn()
            let name = "\(screen)/\(binding.action)"
            if outcome == .quit || outcome == .suspend || startedWork || after != before { continue }
            if Self.documentedNoOps[name] == nil { silent.append("\(binding.keyNames) (\(binding.help))") }
        }
        #expect(silent.isEmpty, "keys listed on \(screen) that do nothing: \(silent)")
    }
}
