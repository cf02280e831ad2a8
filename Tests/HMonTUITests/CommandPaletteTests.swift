import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// `:` finds any screen, any action of the screen on show or of every screen, and a date, by typing, as
/// k9s's command mode and lazygit's keybindings menu do: Enter runs the best match, Esc closes, the mouse
/// picks an entry, and what was run last comes first next time.
@MainActor
struct CommandPaletteTests {
    let size = Size(width: 80, height: 24)

    @Test func typingPartOfAScreensNameOpensItWithEnter() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char(":"))
        await dashboard.type("ener")
        #expect(dashboard.paletteMatches.first?.title == "Energy")
        #expect(frame(of: dashboard, size: size).contains(": ener"))
        _ = await dashboard.press(.enter)
        #expect(dashboard.app.screen == .energy)
        #expect(dashboard.palette == nil, "Enter closes the palette")
    }

    @Test func actionsAreFoundByTheirWordsAndShowTheirKeys() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char(":"))
        for (typed, title, keys) in [("undo", "undo your last add, edit or delete", "U"), ("theme", "next colour theme", "T"),
                                     ("sign out", "sign out", "L"), ("refresh", "refresh now", "R r"),
                                     ("add", "add a weigh-in", "a")] {
            await dashboard.clearPalette()
            await dashboard.type(typed)
            let best = try #require(dashboard.paletteMatches.first, "\(typed)")
            #expect(best.title == title && best.keys == keys, "\(typed): \(best)")
        }
        await dashboard.clearPalette()
        await dashboard.type("zzzq")
        #expect(dashboard.paletteMatches.isEmpty)
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: size).contains("nothing matches \"zzzq\""))
        _ = await dashboard.press(.escape)
        #expect(dashboard.palette == nil && dashboard.app.screen == .weights)
    }

    @Test func aDateTypedGoesToThatDayOnTheTableScreen() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char(":"))
        await dashboard.type("2026-9-1")
        #expect(dashboard.paletteMatches.first?.title == "go to 2026-9-1 on Weights")
        _ = await dashboard.press(.enter)
        // The newest weigh-in on or before that day, as the store has it (what `t` selects).
        let end = try #require(Day(iso: "2026-09-02")).start(in: world.clock.calendar).millisecondsSince1970
        let expected = try await world.store.readings(ReadingsQuery(field: Field.weight), userID: user.id)
            .filter { $0.ts < end }.max { $0.ts < $1.ts }
        let model = try #require(dashboard.weights)
        #expect(model.rows[model.selectedIndex].id == expected?.mid)
    }

    @Test func whatWasRunLastComesFirstAndAClickRunsAnEntry() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char(":"))
        await dashboard.type("hrv")
        _ = await dashboard.press(.enter)
        #expect(dashboard.app.screen == .hrv)
        _ = await dashboard.press(.char(":"))
        #expect(dashboard.paletteMatches.first?.title == "HRV", "the last entry run is first on an empty line")

        // The second entry's row: the box starts on the content's second row, its line and a blank above the list.
        let second = try #require(dashboard.paletteMatches.dropFirst().first)
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 10, y: 1 + 1 + 1 + 1 + 1)))
        #expect(dashboard.palette == nil)
        if case .action(let action) = second.target, let tab = dashboard.screens.indices.first(where: { action == .showTab($0 + 1) }) {
            #expect(dashboard.app.screen == dashboard.screens[tab].id, "the click ran \(second.title)")
        } else {
            Issue.record("the second entry on an empty line is a screen: \(second)")
        }
    }

    @Test func aDeviceByNameOpensTheDevicesScreenWithItChosen() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("3"))
        _ = await dashboard.press(.char(":"))
        await dashboard.type("bathroom")
        let best = try #require(dashboard.paletteMatches.first)
        #expect(best.title == "Bathroom scale" && best.group == "device", "\(best)")
        _ = await dashboard.press(.enter)
        #expect(dashboard.app.screen == .devices)
        #expect(dashboard.app.devices.selectedDevice?.name == "Bathroom scale")
    }

    @Test func theHelpNamesTheColonAndThePalettesOwnKeys() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        #expect(dashboard.helpSections.last?.bindings.contains { $0.action == .palette && $0.keyNames == ":" } == true)
        _ = await dashboard.press(.char(":"))
        #expect(dashboard.helpSections.first?.title == "The palette")
    }

    @Test func thePaletteAt80x24() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char(":"))
        await dashboard.type("e")
        try expectSnapshot(dashboard.frame(size: size), named: "palette-80x24")
    }
}

@MainActor
private extension Dashboard {
    /// Empties the palette's line, as Ctrl-U does.
    func clearPalette() async {
        _ = await press(.end)
        _ = await press(.ctrl("u"))
    }
}
