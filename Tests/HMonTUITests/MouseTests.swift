import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// The mouse does what the keys do: a click on a tab shows it, a click on a row selects it, the wheel
/// moves through the list.
@MainActor
struct MouseTests {
    /// The column where `label` starts on the frame's first row (the tab bar).
    func column(of label: String, in frame: String) throws -> Int {
        let bar = try #require(frame.split(separator: "\n").first)
        let range = try #require(bar.range(of: label), "no \(label) in the tab bar: \(bar)")
        return bar.distance(from: bar.startIndex, to: range.lowerBound)
    }

    @Test func clickingATabShowsThatScreen() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        let before = frame(of: dashboard, size: size)
        let energy = try column(of: "3 Energy", in: before)
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: energy + 2, y: 0)))
        #expect(dashboard.app.screen == .energy)
        // A click on the bar between tabs, or on the name, changes nothing.
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 1, y: 0)))
        #expect(dashboard.app.screen == .energy)
    }

    @Test func clickingAWeighInSelectsItAndTheWheelMovesThreeRowsANotch() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let lines = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
        let selectedRow = try #require(lines.firstIndex { $0.contains("›") })
        let target = selectedRow + 4
        let date = String(lines[target]).split(separator: " ").prefix(5).joined(separator: " ")
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 10, y: target)))
        let clicked = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(clicked[target].contains("›"), "the clicked row is selected: \(clicked[target])")
        #expect(!clicked[selectedRow].contains("›"))
        #expect(!date.isEmpty)

        _ = await dashboard.press(.mouse(MouseEvent(.wheelUp, x: 10, y: target)))
        let wheeled = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(wheeled[target - Dashboard.rowsPerWheelNotch].contains("›"))
    }

    @Test func aClickBelowTheLastRowOrOnTheChartSelectsNothingNew() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let before = frame(of: dashboard, size: size)
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 20, y: 5)))   // the chart
        #expect(frame(of: dashboard, size: size) == before)
    }
}

@MainActor
struct DeviceClickTests {
    @Test func clickingADeviceSelectsIt() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        for size in [Size(width: 120, height: 40), Size(width: 160, height: 40), Size(width: 80, height: 24)] {
            let lines = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
            let selected = try #require(lines.firstIndex { $0.contains("›") })
            let other = try #require(lines.indices.first { $0 > selected && lines[$0].contains("Calorie") || $0 > selected && lines[$0].contains("tracker") },
                                     "another device below the selected one at \(size)")
            _ = await dashboard.press(.mouse(MouseEvent(.click, x: size.width - 10, y: other)))
            let after = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(after[other].contains("›"), "at \(size): \(after[other])")
            _ = await dashboard.press(.mouse(MouseEvent(.click, x: size.width - 10, y: selected)))
        }
    }
}

@MainActor
struct OldestReadingTests {
    @Test func endLoadsEveryOlderReadingAndSelectsTheOldest() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let weighIns = try await world.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM messages WHERE uid = ? AND json_extract(data, '$.weight') IS NOT NULL",
                             arguments: [Data(BinaryID.encode(user.id))])
        } ?? 0
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let weights = try #require(dashboard.weights)
        #expect(weights.rows.count < weighIns, "only the first page is loaded before End")
        _ = await dashboard.press(.end)
        #expect(weights.rows.count == weighIns && !weights.hasOlder)
        #expect(weights.selectedIndex == weighIns - 1)
        #expect(frame(of: dashboard, size: size).contains("› " + weights.rows[weighIns - 1].date))
    }
}

@MainActor
struct HRVClickTests {
    @Test func clickingAMeasurementSelectsIt() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("4"))
        let lines = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
        let selected = try #require(lines.firstIndex { $0.contains("› ") && $0.contains("2026") })
        _ = await dashboard.press(.mouse(MouseEvent(.click, x: 10, y: selected + 3)))
        let after = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(after[selected + 3].contains("›"), "\(after[selected + 3])")
        #expect(!after[selected].contains("›"))
    }
}
