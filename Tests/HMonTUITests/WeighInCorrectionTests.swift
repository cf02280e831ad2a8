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

/// Issue 28, item 7: on the HRV table the keys are the Weights table's: `d` deletes the selected
/// measurement after the same y/n question, `e` corrects one typed by hand, `[`/`]` change the span.
@MainActor
struct HRVMeasurementDeletionTests {
    @Test func dAsksThenDeletesTheSelectedMeasurement() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.char("4"))
        _ = await dashboard.press(.char("a"))
        for key in "61.5" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: size).contains("RMSSD 61.5 ms"))
        #expect(dashboard.helpSections.flatMap(\.bindings).contains { $0.action == .deleteReading && $0.keyNames == "d" })

        _ = await dashboard.press(.char("d"))
        let asked = frame(of: dashboard, size: size)
        #expect(asked.contains("Delete the measurement of") && asked.contains("(RMSSD 61.5 ms)? y/n"), "\(asked)")
        _ = await dashboard.press(.char("n"))
        #expect(frame(of: dashboard, size: size).contains("RMSSD 61.5 ms"), "n keeps it")

        _ = await dashboard.press(.char("d"))
        _ = await dashboard.press(.char("y"))
        let after = frame(of: dashboard, size: size)
        #expect(!after.contains("61.5"), "gone from the latest, the chart and the table")
        let user = try #require(try await world.store.user(named: DemoData.userName))
        #expect(try await world.store.readings(ReadingsQuery(field: Field.rmssd), userID: user.id)
            .allSatisfy { $0.data[Field.rmssd] != .number(61.5) })
    }

    @Test func eCorrectsAMeasurementTypedByHandAndRefusesAComputedOne() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.char("4"))
        // The demo's newest measurement is Welltory's: a computed figure is not for correcting.
        _ = await dashboard.press(.char("e"))
        #expect(frame(of: dashboard, size: size).contains("only a measurement added by hand can be corrected"))

        _ = await dashboard.press(.char("a"))
        for key in "16.5" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        _ = await dashboard.press(.char("e"))
        #expect(frame(of: dashboard, size: size).contains("RMSSD in ms of"))
        _ = await dashboard.press(.ctrl("u"))
        for key in "61.5" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        let after = frame(of: dashboard, size: size)
        #expect(after.contains("RMSSD 61.5 ms") && !after.contains("16.5"), "\(after)")
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let values = try await world.store.readings(ReadingsQuery(field: Field.rmssd), userID: user.id).compactMap { $0.data[Field.rmssd]?.number }
        #expect(values.contains(61.5) && !values.contains(16.5), "corrected in place, not added")
    }

    @Test func bracketsChangeTheSpanAsOnWeights() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.char("4"))
        #expect(frame(of: dashboard, size: size).contains("30 days,"))
        _ = await dashboard.press(.char("]"))
        #expect(frame(of: dashboard, size: size).contains("90 days,"))
        _ = await dashboard.press(.char("["))
        #expect(frame(of: dashboard, size: size).contains("30 days,"))
    }
}

/// Issue 28, item 7: the same key does the same thing on every table screen.
@MainActor
struct TwinTableKeysTests {
    @Test func weightsAndHRVBindTheTableKeysToTheSameActions() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        var tables: [[String: Action]] = []
        for tab in ["2", "4"] {
            _ = await dashboard.press(.char(Character(tab)))
            let table = dashboard.helpSections.flatMap(\.bindings)
            tables.append(Dictionary(table.flatMap { b in b.keys.map { ($0.description, b.action) } }, uniquingKeysWith: { a, _ in a }))
        }
        for key in ["a", "e", "d", "[", "]", "j", "k", "g", "G"] {
            #expect(tables[0][key] != nil && tables[0][key] == tables[1][key], "\(key): \(String(describing: tables[0][key])) vs \(String(describing: tables[1][key]))")
        }
    }
}

/// Issue 28, item 6: `a` on HRV with no meter makes one, says so, and takes the measurement, as
/// `hmon add hrv` does (it used to do nothing, its hint cut).
@MainActor
struct FirstHRVMeterTests {
    @Test func aWithNoMeterMakesOneAndSavesTheMeasurement() async throws {
        let world = try await DemoWorld()
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        for device in try await service.devices() where try await service.manifest(ofType: device.dtid).field(Field.rmssd) != nil {
            _ = try await service.deleteDevice(id: device.id, withReadings: true)
        }
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        _ = await dashboard.press(.char("4"))
        #expect(frame(of: dashboard, size: size).contains("No HRV meter yet"))
        _ = await dashboard.press(.char("a"))
        #expect(frame(of: dashboard, size: size).contains("RMSSD in ms"), "the prompt opens on the new meter")
        for key in "48.5" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        let after = frame(of: dashboard, size: size)
        #expect(after.contains("RMSSD 48.5 ms"), "\(after)")
        let meters = try await service.devices().filter { $0.name == BuiltInDeviceType.hrvMeter.firstDeviceName }
        #expect(meters.count == 1)
    }
}

/// Issue 28, item 6: with no scale (Esc on the setup form), Weights opens and says what `a` does, and `a`
/// makes a scale with the first weigh-in, as `hmon add weight` does; Energy's "Weights, a" is then true.
@MainActor
struct FirstScaleTests {
    @Test func aWithNoScaleMakesOneAndSavesTheWeighIn() async throws {
        let world = try await DemoWorld()
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        for device in try await service.devices() where try await service.manifest(ofType: device.dtid).field(Field.weight) != nil {
            _ = try await service.deleteDevice(id: device.id, withReadings: true)
        }
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        _ = await dashboard.press(.char("2"))
        #expect(dashboard.app.screen == .weights)
        #expect(frame(of: dashboard, size: size).contains("No scale yet: a adds a weigh-in"))
        _ = await dashboard.press(.char("a"))
        #expect(frame(of: dashboard, size: size).contains("New weight in kg"))
        for key in "71.3" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: size).contains("71.3"))
        let scales = try await service.devices().filter { $0.name == BuiltInDeviceType.scale.firstDeviceName }
        #expect(scales.count == 1)
    }
}
