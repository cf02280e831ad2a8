import Foundation
import HMonTUI
import HealthViewModels
import Terminal
import Testing

@MainActor
struct KeyTableTests {
    @Test(arguments: [ScreenID.signIn, .devices, .weights, .energy])
    func theHelpOverlayListsEveryBindingOfTheScreen(screen: ScreenID) async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: screen != .signIn)
        switch screen {
        case .weights: _ = dashboard.perform(.showWeights)
        case .energy: _ = dashboard.perform(.showEnergy)
        default: break
        }
        await dashboard.settle()
        #expect(dashboard.app.screen == screen)
        _ = dashboard.perform(.help)
        let text = frame(of: dashboard, size: Size(width: 120, height: 40))
        for binding in KeyMap.bindings(for: screen) {
            #expect(text.contains(binding.help), "help for \(binding.action) is listed")
            #expect(text.contains(binding.keyNames), "keys \(binding.keyNames) are listed")
        }
    }

    @Test(arguments: [ScreenID.signIn, .devices, .weights, .energy])
    func noKeyIsBoundTwiceOnAScreen(screen: ScreenID) {
        let keys = KeyMap.bindings(for: screen).flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test func aKeyAddedToTheTableIsBothHandledAndListed() {
        // Every action reachable from the devices table is found by looking its first key up.
        for binding in KeyMap.bindings(for: .devices) {
            #expect(KeyMap.action(for: binding.keys[0], in: KeyMap.bindings(for: .devices)) == binding.action)
        }
    }

    @Test func numberKeysTabAndEscapeMoveBetweenScreens() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        #expect(dashboard.app.screen == .devices)

        _ = dashboard.handle(.char("2"))
        await dashboard.settle()
        #expect(dashboard.app.screen == .weights)
        #expect(dashboard.app.weights?.device.name == "Bathroom scale")

        _ = dashboard.handle(.tab)
        await dashboard.settle()
        #expect(dashboard.app.screen == .energy)

        _ = dashboard.handle(.backTab)
        await dashboard.settle()
        #expect(dashboard.app.screen == .weights)

        _ = dashboard.handle(.escape)
        #expect(dashboard.app.screen == .energy, "Esc goes back to where we came from")
        _ = dashboard.handle(.char("1"))
        await dashboard.settle()
        #expect(dashboard.app.screen == .devices)
        #expect(dashboard.handle(.char("q")) == .quit)
        #expect(dashboard.handle(.ctrl("c")) == .quit)
    }

    @Test func typingOnTheSignInFormFillsItAndQDoesNotQuit() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: false)
        for key in "demo".map(Key.char) { #expect(dashboard.handle(key) == .keepGoing) }
        _ = dashboard.handle(.tab)
        for key in "quit".map(Key.char) { #expect(dashboard.handle(key) == .keepGoing) }
        #expect(dashboard.app.signIn.fields.map(\.text) == ["demo", "quit"])
        let text = frame(of: dashboard, size: Size(width: 80, height: 24))
        #expect(text.contains("demo"))
        #expect(text.contains("••••"))
        #expect(!text.contains("quit▏"), "the password never shows")

        _ = dashboard.handle(.enter)
        await dashboard.settle()
        #expect(frame(of: dashboard, size: Size(width: 80, height: 24)).contains("wrong user name or password"))
    }

    @Test func addingAReadingFromTheKeyboardPutsItOnTop() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = dashboard.handle(.char("2"))
        await dashboard.settle()
        _ = dashboard.handle(.char("a"))
        for key in "68.4".map(Key.char) { _ = dashboard.handle(key) }
        #expect(frame(of: dashboard, size: Size(width: 80, height: 24)).contains("New weight in kg: 68.4"))
        _ = dashboard.handle(.enter)
        await dashboard.settle()
        let rows = dashboard.app.weights?.rows ?? []
        #expect(rows.first?.weight == "68.4")
        #expect(rows.first?.isNew == true)
        let text = frame(of: dashboard, size: Size(width: 80, height: 24))
        #expect(text.contains("Fri Nov 20, 2026  18:00    68.4"))
    }
}
