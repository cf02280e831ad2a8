import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// The tables take a terminal's conventions: Ctrl-D and Ctrl-U move by half a page, `/` finds a row that
/// shows a text, and `t` goes to a typed date, loading older rows as far as needed. Read off whole frames.
@MainActor
struct TableSeekKeysTests {
    let size = Size(width: 80, height: 24)

    /// The table's selected line in the frame (marked "›").
    private func selectedLine(_ dashboard: Dashboard) -> String? {
        frame(of: dashboard, size: size).split(separator: "\n").map(String.init).first { $0.contains("›") && $0.contains(", 20") }
    }

    private func weights(_ world: DemoWorld) async throws -> Dashboard {
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.down)  // off the newest row, which is marked as new rather than with "›"
        _ = await dashboard.press(.up)
        return dashboard
    }

    @Test func ctrlDAndCtrlUMoveByHalfAPage() async throws {
        let world = try await DemoWorld()
        let dashboard = try await weights(world)
        let rows = try #require(dashboard.weights?.rows)
        let page = (dashboard.screens.first { $0.id == .weights } as? WeightsScreen)?.table.pageSize ?? 0
        try #require(page >= 4, "a page of rows at 80×24")

        _ = await dashboard.press(.ctrl("d"))
        #expect(selectedLine(dashboard)?.contains(rows[page / 2].date) == true, "\(selectedLine(dashboard) ?? "no selected line")")
        _ = await dashboard.press(.ctrl("d"))
        #expect(selectedLine(dashboard)?.contains(rows[2 * (page / 2)].date) == true)
        _ = await dashboard.press(.ctrl("u"))
        #expect(selectedLine(dashboard)?.contains(rows[page / 2].date) == true)
        _ = await dashboard.press(.ctrl("u"))
        _ = await dashboard.press(.ctrl("u"))
        #expect(dashboard.weights?.selectedIndex == 0, "Ctrl-U stops at the newest row")
    }

    @Test func slashFindsTheNextRowShowingATextAndSaysWhenNoneDoes() async throws {
        let world = try await DemoWorld()
        let dashboard = try await weights(world)
        _ = await dashboard.press(.char("/"))
        await dashboard.type("nov 03, 2026")
        #expect(frame(of: dashboard, size: size).split(separator: "\n").last?.contains("Find: nov 03, 2026") == true,
                "the prompt is in the status bar")
        _ = await dashboard.press(.enter)
        #expect(selectedLine(dashboard)?.contains("Tue Nov 03, 2026") == true, "\(selectedLine(dashboard) ?? "no selected line")")

        // `/` again opens empty, the last text one key away: ↑ brings it back to edit.
        _ = await dashboard.press(.char("/"))
        var status = try #require(frame(of: dashboard, size: size).split(separator: "\n").last)
        #expect(!status.contains("Find: nov 03"), "the prompt starts empty: \(status)")
        #expect(status.contains(#"next "nov 03, 2026""#), "and says Enter finds the last text again: \(status)")
        _ = await dashboard.press(.up)
        status = try #require(frame(of: dashboard, size: size).split(separator: "\n").last)
        #expect(status.contains("Find: nov 03, 2026"), "\(status)")
        _ = await dashboard.press(.escape)

        let before = dashboard.weights?.selectedIndex
        _ = await dashboard.press(.char("/"))
        await dashboard.type("no such text")
        _ = await dashboard.press(.enter)
        status = try #require(frame(of: dashboard, size: size).split(separator: "\n").last)
        #expect(status.contains("no weigh-in shows \"no such text\""), "\(status)")
        #expect(dashboard.weights?.selectedIndex == before, "the selection stays")
    }

    @Test func tGoesToADateLoadingOlderRowsAndRefusesANonDate() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let dashboard = try await weights(world)
        let loadedBefore = dashboard.weights?.rows.count ?? 0

        _ = await dashboard.press(.char("t"))
        await dashboard.type("2026-9-1")
        _ = await dashboard.press(.enter)
        // The newest weigh-in on or before that day, as the store has it.
        let calendar = world.clock.calendar
        let end = try #require(Day(iso: "2026-09-02")).start(in: calendar).millisecondsSince1970
        let expected = try await world.store.readings(ReadingsQuery(field: Field.weight), userID: user.id)
            .filter { $0.ts < end }.max { $0.ts < $1.ts }
        let model = try #require(dashboard.weights)
        #expect(model.rows.count > loadedBefore, "older rows were loaded to reach it")
        #expect(model.rows[model.selectedIndex].id == expected?.mid)
        let line = try #require(selectedLine(dashboard))
        #expect(line.contains(model.rows[model.selectedIndex].date) && (line.contains("Sep 01") || line.contains("Aug ")), "\(line)")

        _ = await dashboard.press(.char("t"))
        await dashboard.type("someday")
        _ = await dashboard.press(.enter)
        let status = try #require(frame(of: dashboard, size: size).split(separator: "\n").last)
        #expect(status.contains("not a date: type 2026-11-20 or yesterday"), "\(status)")
        _ = await dashboard.press(.escape)
        #expect(!(frame(of: dashboard, size: size).split(separator: "\n").last?.contains("To the date") ?? true), "Esc closes it")
    }

    @Test func theNewKeysAreInTheHelpOfEveryTableScreen() async throws {
        let world = try await DemoWorld()
        let dashboard = try await weights(world)
        _ = await dashboard.press(.char("?"))
        let help = frame(of: dashboard, size: Size(width: 120, height: 50))
        for words in ["Ctrl-D", "half a page down", "Ctrl-U", "half a page up", "find a text", "go to a date"] {
            #expect(help.contains(words), "\(words) in the help:\n\(help)")
        }
        let hrv = try #require(dashboard.screens.first { $0.id == .hrv })
        for action in [Action.find, .jumpToDate, .halfPageDown, .halfPageUp] {
            #expect(hrv.bindings.contains { $0.action == action }, "\(action) on HRV too")
        }
    }
}
