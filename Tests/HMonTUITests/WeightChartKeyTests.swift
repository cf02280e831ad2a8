import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing

/// `[` and `]` change the weight chart's span; the chart is braille, over the real days.
@MainActor
struct WeightChartKeyTests {
    @Test func theBracketsChangeTheSpanTheChartCovers() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        #expect(frame(of: dashboard, size: size).contains("90 days, Aug 23 – Nov 20"))

        _ = await dashboard.press(.char("["))
        let thirty = frame(of: dashboard, size: size)
        #expect(thirty.contains("30 days, Oct 22 – Nov 20"))
        #expect(thirty.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "the chart is drawn in braille")
        #expect(thirty.contains("Oct 22"), "weekly day labels under a 30-day chart")

        _ = await dashboard.press(.char("]"))
        _ = await dashboard.press(.char("]"))
        // The demo's weigh-ins began 180 days ago: a year's span starts the time axis at the first of them.
        #expect(frame(of: dashboard, size: size).contains("180 days, May 25, 2026 – Nov 20, 2026"))
        _ = await dashboard.press(.char("]"))
        #expect(dashboard.weights?.span == .all)
    }

    @Test func theSummaryLineSpeaksOfTheTrendAndTheGoal() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 200, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let summary = try #require(dashboard.weights?.summary.map(\.text))
        #expect(summary.first?.hasPrefix("trend ") == true)
        #expect(summary.contains { $0.hasPrefix("BMI ") }, "the demo profile has a height")
        #expect(summary.contains { $0.hasPrefix("goal 66.0 kg") || $0.hasPrefix("within 1.0 kg") }, "the demo profile has a goal")
    }
}
