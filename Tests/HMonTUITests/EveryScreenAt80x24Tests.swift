import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// At 80×24, the size most terminals open at, no word of hmon's is broken by an edge: every screen, empty
/// and full, every form, prompt, question, hint, help page and status-bar message, drawn whole and read for
/// words cut mid-way (`CutWordRecorder`).
@MainActor
struct EveryScreenAt80x24Tests {
    static let size = Size(width: 80, height: 24)

    /// The frame's broken words, each with where it was seen.
    private static func broken(_ dashboard: Dashboard, _ place: String) -> [String] {
        dashboard.resize(to: size)
        let canvas = CutWordRecorder(size: size)
        dashboard.current.layout(in: Dashboard.contentArea(of: size))
        DashboardView(dashboard: dashboard).draw(on: canvas)
        // The store's path is the person's own text, cut at its start or end by design, never hmon's words.
        return canvas.brokenWords.filter { !$0.contains("hmon-snap-") }.map { "\(place): \($0)" }
    }

    /// Each help page of what is on show.
    private static func helpPages(_ dashboard: Dashboard, _ place: String) async -> [String] {
        var found: [String] = []
        _ = await dashboard.press(.function(1))
        let pages = HelpOverlay(sections: dashboard.helpSections).pages(in: Rect(x: 0, y: 0, width: size.width, height: size.height))
        for page in 0..<max(pages, 1) {
            found += broken(dashboard, "\(place) help page \(page + 1)")
            if page + 1 < pages { _ = await dashboard.press(.down) }
        }
        _ = await dashboard.press(.escape)
        return found
    }

    @Test func aTextIsCutBetweenWordsAndAWordWithNoSpaceToBackOffToIsFound() {
        let canvas = CutWordRecorder(size: Size(width: 24, height: 2))
        _ = canvas.text("Energy eaten (kcal)", at: Point(x: 0, y: 0), style: .text, maxWidth: 18)
        _ = canvas.text("db9c559891948d2378bc927ded3", at: Point(x: 0, y: 1), style: .text, maxWidth: 10)
        #expect(canvas.grid.line(0) == "Energy eaten…", "\(canvas.grid.line(0))")
        #expect(canvas.brokenWords == ["\"db9c55989…\" of \"db9c559891948d2378bc927ded3\""])
    }

    @Test func theDemosScreensFormsPromptsAndHelpKeepEveryWordWhole() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        var found: [String] = []
        for (tab, name) in [("1", "Devices"), ("2", "Weights"), ("3", "Energy"), ("4", "HRV"), ("5", "Insights")] {
            _ = await dashboard.press(.char(Character(tab)))
            found += Self.broken(dashboard, name)
            found += await Self.helpPages(dashboard, name)
        }
        // Devices: adding and renaming a device, and the delete question.
        _ = await dashboard.press(.char("1"))
        for (key, place) in [("a", "adding a device"), ("e", "renaming a device"), ("d", "deleting a device")] {
            _ = await dashboard.press(.char(Character(key)))
            found += Self.broken(dashboard, place)
            _ = await dashboard.press(.escape)
            _ = await dashboard.press(.char("n"))
        }
        // Each table screen's prompt, a value it refuses (said in the status bar), and its delete question.
        for (tab, name) in [("2", "Weights"), ("3", "Energy"), ("4", "HRV")] {
            _ = await dashboard.press(.char(Character(tab)))
            _ = await dashboard.press(.char("a"))
            found += Self.broken(dashboard, "\(name) prompt")
            await dashboard.type("12x")
            _ = await dashboard.press(.enter)
            found += Self.broken(dashboard, "\(name) prompt refusing 12x")
            _ = await dashboard.press(.escape)
            _ = await dashboard.press(.char("d"))
            found += Self.broken(dashboard, "\(name) delete question")
            _ = await dashboard.press(.char("n"))
        }
        // The table keys' prompts, and a date they refuse.
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("/"))
        found += Self.broken(dashboard, "find prompt")
        _ = await dashboard.press(.escape)
        _ = await dashboard.press(.char("t"))
        await dashboard.type("someday")
        _ = await dashboard.press(.enter)
        found += Self.broken(dashboard, "date prompt refusing a date")
        _ = await dashboard.press(.escape)
        // The profile form, a refused height, and the sign-out question.
        _ = await dashboard.press(.char("p"))
        found += Self.broken(dashboard, "profile form")
        _ = await dashboard.press(.tab)
        _ = await dashboard.press(.tab)
        for _ in 0..<6 { _ = await dashboard.press(.backspace) }
        await dashboard.type("999")
        _ = await dashboard.press(.tab)
        found += Self.broken(dashboard, "profile form refusing a height")
        found += await Self.helpPages(dashboard, "profile form")
        _ = await dashboard.press(.escape)
        _ = await dashboard.press(.char("L"))
        found += Self.broken(dashboard, "sign-out question")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func aNewAccountsFormsSetupAndEmptyScreensKeepEveryWordWhole() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: false)
        var found = Self.broken(dashboard, "sign-in form")
        found += await Self.helpPages(dashboard, "sign-in form")
        _ = await dashboard.press(.ctrl("n"))
        found += Self.broken(dashboard, "create-account form")
        await dashboard.type("ana b")
        _ = await dashboard.press(.tab)
        found += Self.broken(dashboard, "create-account form refusing a name")
        _ = await dashboard.press(.backTab)
        _ = await dashboard.press(.backspace)
        _ = await dashboard.press(.backspace)
        for _ in 0..<3 { _ = await dashboard.press(.tab) }
        await dashboard.type("hunter22")
        _ = await dashboard.press(.tab)
        await dashboard.type("hunter22")
        _ = await dashboard.press(.enter)
        try #require(dashboard.app.profileForm?.isSetup == true, "the setup form is open")
        found += Self.broken(dashboard, "setup form")
        found += await Self.helpPages(dashboard, "setup form")
        _ = await dashboard.press(.escape)
        for (tab, name) in [("1", "Devices"), ("2", "Weights"), ("3", "Energy"), ("4", "HRV"), ("5", "Insights")] {
            _ = await dashboard.press(.char(Character(tab)))
            found += Self.broken(dashboard, "empty \(name)")
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
