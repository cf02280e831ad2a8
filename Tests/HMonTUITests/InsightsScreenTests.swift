import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// The Insights screen on the demo store: findings, the weekday table and the correlations, moving
/// through them and opening a pair's two series.
@MainActor
struct InsightsScreenTests {
    static let size = Size(width: 120, height: 40)

    @Test func theDemoShowsFindingsMediansAndCorrelations() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("5"))
        let text = frame(of: dashboard, size: Self.size)
        #expect(text.contains("Findings"), "\(text)")
        #expect(text.contains("Medians, 60 days"))
        #expect(text.contains("Mon") && text.contains("Sun"))
        #expect(text.contains("Correlations"))
        #expect(text.contains("pairs tested"))
        #expect(text.contains("★"), "the demo has correlations that survive: \(text)")
        #expect(text.contains("On days"))
    }

    @Test func enterShowsTheSelectedPairsSeriesAndEscCloses() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("5"))
        _ = await dashboard.press(.down)
        let screen = try #require(dashboard.current as? InsightsScreen)
        #expect(screen.model.selectedIndex == min(1, screen.model.correlations.count - 1))
        _ = await dashboard.press(.enter)
        let detail = try #require(screen.model.detail)
        #expect(detail.sentence == screen.model.correlations[screen.model.selectedIndex].sentence)
        #expect(detail.first.values.count == InsightsModel.detailDays)
        let text = frame(of: dashboard, size: Self.size)
        #expect(text.contains(detail.first.title) && text.contains(detail.second.title), "\(text)")
        #expect(text.contains("Enter or Esc: back to the list"))
        _ = await dashboard.press(.escape)
        #expect(screen.model.detail == nil)
        #expect(dashboard.current.id == .insights, "Esc closed the series, not the screen")
    }

    @Test func aReadingAddedElsewhereShowsAfterRefresh() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("5"))
        let screen = try #require(dashboard.current as? InsightsScreen)
        let before = screen.model.findings
        // Another process weighs in at a weight far below any in the demo: a record finding appears on R.
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        let scale = try #require(try await service.devices().first { $0.name == "Bathroom scale" })
        try await service.post(NewMessage(sdid: scale.id, ts: DemoWorld.now.addingTimeInterval(-60).millisecondsSince1970,
                                          data: [Field.weight: .number(60)]))
        _ = await dashboard.press(.char("R"))
        #expect(screen.model.findings != before)
        #expect(screen.model.findings.contains { $0.hasPrefix("Lowest weight in a year") }, "\(screen.model.findings)")
    }
}
