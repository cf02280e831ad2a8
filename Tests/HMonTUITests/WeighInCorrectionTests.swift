import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// On the weights screen `e` corrects the selected weigh-in through the prompt `a` uses, and `d` deletes
/// it after a y/n question; what changed shows in the table, the chart's summary and the devices screen.
@MainActor
struct WeighInCorrectionTests {
    let size = Size(width: 120, height: 40)

    /// The demo on its weights screen, with a mistyped weigh-in at 17:30 as the newest reading.
    func weightsWithATypo() async throws -> (DemoWorld, Dashboard, String) {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let scale = try #require(try await world.store.devices(userID: user.id).first { $0.name == "Bathroom scale" })
        let evening = DemoWorld.now.addingTimeInterval(-30 * 60)
        let typo = try await world.store.post(NewMessage(sdid: scale.id, ts: evening.millisecondsSince1970,
                                                         data: [Field.weight: .number(27.4)]), userID: user.id, now: DemoWorld.now)
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        return (world, dashboard, typo)
    }

    @Test func eCorrectsTheSelectedWeighInWithTheSameRulesAsANewOne() async throws {
        let (world, dashboard, typo) = try await weightsWithATypo()
        let weights = try #require(dashboard.weights)
        #expect(weights.rows.first?.id == typo)
        #expect(dashboard.helpSections.flatMap(\.bindings).contains { $0.action == .editReading && $0.keyNames == "e" })

        _ = await dashboard.press(.char("e"))
        #expect(weights.prompt?.text == "27.4", "the prompt holds the value to correct")
        #expect(frame(of: dashboard, size: size).contains("Weight in kg of Fri Nov 20, 2026  17:30"))
        for _ in 0..<4 { _ = await dashboard.press(.backspace) }
        for character in "720" { _ = await dashboard.press(.char(character)) }
        _ = await dashboard.press(.enter)
        #expect(weights.problem?.contains("outside 1–650 kg") == true, "\(weights.problem ?? "no problem")")
        #expect(weights.prompt != nil, "the prompt stays open to fix it")

        for _ in 0..<3 { _ = await dashboard.press(.backspace) }
        for character in "72.4" { _ = await dashboard.press(.char(character)) }
        _ = await dashboard.press(.enter)
        #expect(weights.prompt == nil)
        #expect(weights.rows.first?.id == typo, "the same reading, corrected")
        #expect(weights.rows.first?.weight == "72.4")
        let user = try #require(try await world.store.user(named: DemoData.userName))
        #expect(try await world.store.reading(id: typo, userID: user.id).data[Field.weight] == .number(72.4))
    }

    @Test func dAsksThenDeletesAndTheReadingLeavesEveryScreen() async throws {
        let (world, dashboard, typo) = try await weightsWithATypo()
        let weights = try #require(dashboard.weights)
        let before = frame(of: dashboard, size: size)
        #expect(before.contains("27.4"))
        _ = await dashboard.press(.char("1"))
        #expect(frame(of: dashboard, size: size).contains("27.4"), "the devices screen shows it as the last reading")
        _ = await dashboard.press(.char("2"))

        _ = await dashboard.press(.char("d"))
        #expect(frame(of: dashboard, size: size).contains("Delete 27.4 kg of Fri Nov 20, 2026  17:30? y/n"))
        _ = await dashboard.press(.char("n"))
        #expect(weights.deleting == nil)
        #expect(weights.rows.first?.id == typo, "n keeps it")

        _ = await dashboard.press(.char("d"))
        _ = await dashboard.press(.char("y"))
        #expect(weights.rows.first?.id != typo)
        #expect(!weights.rows.contains { $0.id == typo })
        let after = frame(of: dashboard, size: size)
        #expect(!after.contains("27.4"), "gone from the table and the chart's summary")
        let user = try #require(try await world.store.user(named: DemoData.userName))
        await #expect(throws: HealthError.unknownReading(typo)) { try await world.store.reading(id: typo, userID: user.id) }

        _ = await dashboard.press(.char("1"))
        // No R: the dashboard's own write makes the devices screen reload when it is shown.
        #expect(!frame(of: dashboard, size: size).contains("27.4"), "the devices screen's last reading is the one before")
    }
}

/// An imported weigh-in keeps its source, and the weights table shows it.
@MainActor
struct WeighInSourceTests {
    @Test func anImportedWeighInsSourceIsShownInTheTable() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let scale = try #require(try await world.store.devices(userID: user.id).first { $0.name == "Bathroom scale" })
        let evening = DemoWorld.now.addingTimeInterval(-30 * 60)
        try await world.store.post(NewMessage(sdid: scale.id, ts: evening.millisecondsSince1970,
                                              data: [Field.weight: .number(70.1), Field.source: .text("Withings")]),
                                   userID: user.id, now: DemoWorld.now)
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        let shown = frame(of: dashboard, size: size)
        #expect(shown.contains("Source"))
        let row = try #require(shown.split(separator: "\n").first { $0.contains("Fri Nov 20, 2026  17:30") })
        #expect(row.contains("70.1") && row.contains("Withings"), "\(row)")
    }
}

/// On the HRV table `x` deletes the selected measurement after the same y/n question.
@MainActor
struct HRVMeasurementDeletionTests {
    @Test func xAsksThenDeletesTheSelectedMeasurement() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.char("4"))
        _ = await dashboard.press(.char("a"))
        for key in "61.5" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: size).contains("RMSSD 61.5 ms"))
        #expect(dashboard.helpSections.flatMap(\.bindings).contains { $0.action == .deleteReading && $0.keyNames == "x" })

        _ = await dashboard.press(.char("x"))
        let asked = frame(of: dashboard, size: size)
        #expect(asked.contains("Delete the measurement of") && asked.contains("(RMSSD 61.5 ms)? y/n"), "\(asked)")
        _ = await dashboard.press(.char("n"))
        #expect(frame(of: dashboard, size: size).contains("RMSSD 61.5 ms"), "n keeps it")

        _ = await dashboard.press(.char("x"))
        _ = await dashboard.press(.char("y"))
        let after = frame(of: dashboard, size: size)
        #expect(!after.contains("61.5"), "gone from the latest, the chart and the table")
        let user = try #require(try await world.store.user(named: DemoData.userName))
        #expect(try await world.store.readings(ReadingsQuery(field: Field.rmssd), userID: user.id)
            .allSatisfy { $0.data[Field.rmssd] != .number(61.5) })
    }
}
