import Foundation
@testable import HMonTUI
import HealthViewModels
import Terminal
import Testing

/// When the goal is reached is what a person looks for on the Weights screen: where the summary line has no
/// room for the goal (80 columns), it stands above the chart, left of the span.
@MainActor
struct GoalDateAt80ColumnsTests {
    @Test func theGoalAndItsDateShowAt80By24() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let goal = try #require(dashboard.weights?.summary.first(where: \.isGoal)?.text, "the demo profile has a goal")
        let lines = frame(of: dashboard, size: size).split(separator: "\n")
        let spanRow = try #require(lines.first { $0.contains("[ ] span") })
        #expect(spanRow.contains(goal), "\(spanRow)")
        #expect(lines.filter { $0.contains(goal) }.count == 1, "once, not on the summary line too")
    }

    @Test func whereTheSummaryHasRoomTheGoalStaysOnIt() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let goal = try #require(dashboard.weights?.summary.first(where: \.isGoal)?.text)
        let lines = frame(of: dashboard, size: size).split(separator: "\n")
        #expect(lines.first { $0.contains("[ ] span") }?.contains(goal) == false)
        #expect(lines.contains { $0.contains("trend ") && $0.contains(goal) })
    }
}
