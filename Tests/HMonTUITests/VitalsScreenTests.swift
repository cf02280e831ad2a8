import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage
import Terminal
import Testing

/// The Vitals screen as a person uses it on the demo's two weeks of vital signs: tab 8 shows it, ↓, a click
/// and the wheel choose a row (marked `›`, which needs no colour), the selected blood pressure is written in
/// full with its category's guideline, and someone who weighs in pounds reads temperatures in °F here and on
/// the overview.
@MainActor
struct VitalsScreenTests {
    static func lines(_ dashboard: Dashboard, _ size: Size) -> [String] {
        frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func keysAClickAndTheWheelChooseARow() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("8"))
        #expect(dashboard.app.screen == .vitals)
        let screen = try #require(dashboard.current as? VitalsScreen)
        #expect(screen.problem == nil)
        var lines = Self.lines(dashboard, size)
        let first = try #require(lines.firstIndex { $0.contains("›") })
        #expect(lines[first].contains("mmHg · pulse"), "the demo's newest reading is the morning's blood pressure: \(lines[first])")
        #expect(lines.contains { $0.contains("(2017 ACC/AHA, one reading)") }, "the selected blood pressure in full")

        _ = await dashboard.press(.char("j"))
        #expect(screen.model.selectedIndex == 1)
        lines = Self.lines(dashboard, size)
        #expect(lines[first + 1].contains("›") && !lines[first].contains("›"))

        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 10, y: first + 5)))
        #expect(screen.model.selectedIndex == 5)
        #expect(Self.lines(dashboard, size)[first + 5].contains("›"))
        _ = await dashboard.press(.mouse(MouseEvent(.wheelDown, x: 10, y: first + 5)))
        #expect(screen.model.selectedIndex == 5 + Dashboard.rowsPerWheelNotch)
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 10, y: first - 1)))
        #expect(screen.model.selectedIndex == 5 + Dashboard.rowsPerWheelNotch, "a click on the column titles chooses nothing")

        _ = await dashboard.press(.char("G"))
        #expect(screen.model.selectedIndex == screen.model.rows.count - 1)
        _ = await dashboard.press(.char("g"))
        #expect(screen.model.selectedIndex == 0)
    }

    @Test func temperaturesAreInFahrenheitForSomeoneWhoWeighsInPounds() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        var profile = try await world.store.profile(userID: user.id)
        profile.massUnit = .lb
        try await world.store.updateProfile(profile, userID: user.id)
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        for tab in ["8", "6"] {
            _ = await dashboard.press(.char(Character(tab)))
            let text = frame(of: dashboard, size: size)
            #expect(text.contains("°F") && !text.contains("°C"), "\(dashboard.app.screen):\n\(text)")
        }
    }
}
