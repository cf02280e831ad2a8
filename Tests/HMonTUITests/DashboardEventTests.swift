import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// The event side of the dashboard: loads in flight, the spinner, live updates, resizes, themes.
@MainActor
struct DashboardEventTests {
    @Test func theSpinnerTurnsWhileALoadRunsAndGoesWhenItsAnswerIsIn() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        dashboard.resize(to: size)
        let idle = dashboard.frame(size: size).line(23)
        #expect(!StatusBar.spinner.contains { idle.contains($0) })

        _ = dashboard.perform(.refresh)
        #expect(dashboard.isBusy)
        #expect(dashboard.current.isRefreshing, "the screen says it is refreshing until the answer is in")
        let first = dashboard.frame(size: size).line(23)
        dashboard.tick()
        let second = dashboard.frame(size: size).line(23)
        #expect(first.hasPrefix(" \(StatusBar.spinner[0])"))
        #expect(second.hasPrefix(" \(StatusBar.spinner[1])"), "a tick turns the spinner")

        await dashboard.settle()
        #expect(!dashboard.isBusy)
        let after = dashboard.frame(size: size).line(23)
        #expect(!StatusBar.spinner.contains { after.contains($0) }, "the spinner goes when the answer is in")
    }

    @Test func drawingAFrameChangesNothingAndStartsNothing() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        dashboard.resize(to: Size(width: 80, height: 24))
        await dashboard.settle()
        // A frame at another size than the last layout: nothing is loaded for it, and the same state draws
        // the same cells every time.
        let tall = Size(width: 200, height: 60)
        let once = dashboard.frame(size: tall).renderStyled(attributes: true)
        #expect(!dashboard.isBusy, "drawing never starts a load")
        #expect(dashboard.frame(size: tall).renderStyled(attributes: true) == once)
    }

    @Test func aTallerTerminalLoadsOlderReadingsUntilTheTableIsFull() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: Size(width: 80, height: 24))
        _ = await dashboard.press(.char("2"))
        let weights = try #require(dashboard.weights)
        #expect(weights.rows.count == WeightsModel.pageSize, "a small terminal loads one page")

        dashboard.resize(to: Size(width: 200, height: 80))
        #expect(dashboard.isBusy, "the resize asks for older readings")
        await dashboard.settle()
        let screen = try #require(dashboard.screens.first { $0.id == .weights } as? WeightsScreen)
        #expect(screen.table.pageSize > WeightsModel.pageSize)
        try #require(weights.rows.count >= screen.table.pageSize, "the taller table is full")
        let text = frame(of: dashboard, size: Size(width: 200, height: 80))
        #expect(text.contains(weights.rows[screen.table.pageSize - 1].date), "its last row is drawn")
    }

    @Test func aChangeFromAnotherConnectionShowsAtTheNextTickAndNotBefore() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("2"))
        let weights = try #require(dashboard.weights)
        dashboard.liveUpdate(pollInterval: 30)
        await dashboard.settle()
        let before = weights.lastUpdated
        dashboard.liveUpdate(pollInterval: 30)
        await dashboard.settle()
        #expect(weights.lastUpdated == before, "no change, no refresh")

        // Another process (another connection to the same file) adds a weight.
        let other = LocalHealthService(store: try LocalStore(url: world.store.url, passwordHasher: .fastForTests))
        try await other.actingAs(name: DemoData.userName)
        try await other.post(NewMessage(sdid: weights.device.id, ts: DemoWorld.now.millisecondsSince1970 - 60_000,
                                        data: [Field.weight: .number(66.6)]))
        dashboard.liveUpdate(pollInterval: 30)
        await dashboard.settle()
        #expect(weights.rows.first?.weight == "66.6")
        #expect(weights.rows.first?.isNew == true)
    }

    @Test func themeKeyCyclesThemesAndSaysWhichOneCannotLoad() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "accent = \"#88c0d0\"\n".write(to: folder.appendingPathComponent("arctic.theme"), atomically: true, encoding: .utf8)
        try "accent = \"#88c0d0\"\nsparkle = \"#ff00ff\"\n".write(to: folder.appendingPathComponent("broken.theme"), atomically: true, encoding: .utf8)
        let switcher = ThemeSwitcher(catalog: ThemeCatalog(userDirectory: folder.path, builtInDirectories: []), current: "default")

        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.cycleTheme = { try switcher.next()?.name }
        let size = Size(width: 100, height: 30)
        dashboard.resize(to: size)

        _ = dashboard.handle(.char("T"))
        #expect(dashboard.ui.themeName == "arctic")
        #expect(dashboard.frame(size: size).line(29).contains("theme arctic"))

        _ = dashboard.handle(.char("T"))
        #expect(dashboard.ui.themeName == "arctic", "a theme that cannot load is not applied")
        let status = dashboard.frame(size: size).line(29)
        #expect(status.contains("broken.theme:2"), "the status bar names the file and line: \(status)")

        _ = dashboard.handle(.char("T"))
        #expect(dashboard.ui.themeName == "default", "the next T moves on past it")
        #expect(!dashboard.frame(size: size).line(29).contains("broken.theme"))
    }

    @Test func aTableKeepsTheSelectionInViewWithTheLeastScrolling() {
        var table = TableState()
        table.layout(pageSize: 10, selected: 0, count: 45)
        #expect(table.offset == 0)
        table.layout(pageSize: 10, selected: 20, count: 45)
        #expect(table.offset == 11, "the selection is the last row in view")
        table.layout(pageSize: 10, selected: 15, count: 45)
        #expect(table.offset == 11, "moving up inside the view does not scroll")
        table.layout(pageSize: 30, selected: 15, count: 45)
        #expect(table.offset == 11, "a taller view keeps its top while it can")
        table.layout(pageSize: 40, selected: 15, count: 45)
        #expect(table.offset == 5, "but never leaves blank rows under the last reading")
    }
}
