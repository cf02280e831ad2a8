import Foundation
@testable import HMonTUI
import HealthViewModels
import Terminal
import Testing

/// The overview as a way in: ↑/↓ (or a click) choose a line, Enter opens the screen that shows it in full —
/// the sleep line the Sleep screen, the weight line Weights, a vital sign's line Vitals — and a line with no
/// screen of its own (resting heart rate) stays where it is.
@MainActor
struct OverviewLinesTests {
    @Test func enterOnALineOpensItsScreen() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("6"))
        #expect(dashboard.current.id == .overview)
        let labels = try #require(dashboard.current as? OverviewScreen).model.rows.map(\.label)
        let sleep = try #require(labels.firstIndex(of: "Sleep")), resting = try #require(labels.firstIndex(of: "Resting HR"))

        for _ in 0..<sleep { _ = await dashboard.press(.down) }
        _ = await dashboard.press(.enter)
        #expect(dashboard.current.id == .sleep, "Enter on the sleep line")

        _ = await dashboard.press(.char("6"))
        let overview = try #require(dashboard.current as? OverviewScreen)
        #expect(overview.selected == sleep, "the line stays chosen")
        for _ in sleep..<resting { _ = await dashboard.press(.char("j")) }
        _ = await dashboard.press(.enter)
        #expect(dashboard.current.id == .overview, "resting heart rate has no screen of its own")

        // The demo's watch measures blood pressure: its line opens the Vitals screen.
        let bp = try #require(labels.firstIndex(of: "BP"), "\(labels)")
        for _ in 0..<20 { _ = await dashboard.press(.char("k")) }
        for _ in 0..<bp { _ = await dashboard.press(.char("j")) }
        _ = await dashboard.press(.enter)
        #expect(dashboard.current.id == .vitals, "Enter on the blood pressure line")
        _ = await dashboard.press(.char("6"))

        for _ in 0..<20 { _ = await dashboard.press(.char("k")) }
        #expect(overview.selected == 0, "↑ stops at the first line")
        _ = await dashboard.press(.enter)
        #expect(dashboard.current.id == .weights)
    }

    /// The chosen line's name is drawn as selected; a click on another line chooses it.
    @Test func theChosenLineIsMarkedAndAClickChoosesAnother() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("6"))
        let size = Size(width: 80, height: 24)
        let text = frame(of: dashboard, size: size)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let hrvRow = try #require(rows.firstIndex { $0.contains("│ HRV") }, "\(text)")
        let canvas = dashboard.frame(size: size)
        let weightRow = try #require(rows.firstIndex { $0.contains("│ Weight") })
        #expect(canvas.cell(at: Point(x: 2, y: weightRow))?.style == Styles.selectedText, "the first line is chosen")
        #expect(canvas.cell(at: Point(x: 2, y: hrvRow))?.style != Styles.selectedText)

        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 4, y: hrvRow)))
        let overview = try #require(dashboard.current as? OverviewScreen)
        #expect(overview.model.rows[overview.selected].label == "HRV")
        _ = await dashboard.press(.enter)
        #expect(dashboard.current.id == .hrv)
    }
}
