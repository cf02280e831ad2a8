import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The Vitals screen's list: each vital sign's readings newest first, a blood pressure as one line with its
/// pulse and its 2017 ACC/AHA category, and temperatures in the person's units (°F for someone who weighs
/// in pounds, a change from baseline converted as a difference). Local and over a server alike.
@MainActor
struct VitalsModelTests {
    /// A watch (activity tracker) with one reading of each sign on 18–20 November, and a weigh-in that is
    /// no vital sign.
    static func vitals(_ world: ViewModelWorld) async throws -> any HealthService {
        let service = try await world.signedIn()
        let watch = try await world.device("Activity Tracker", named: "Watch", on: service)
        let scale = try await world.device("Withings Device", named: "Scale", on: service)
        func post(_ local: String, _ data: [String: FieldValue], on device: Device = watch) async throws {
            try await service.post(NewMessage(sdid: device.id, ts: ViewModelWorld.date(local).millisecondsSince1970, data: data))
        }
        try await post("2026-11-18 07:40", [Field.systolic: .number(118), Field.diastolic: .number(76)])
        try await post("2026-11-19 06:20", [Field.oxygenSaturation: .number(96.5)])
        try await post("2026-11-19 06:21", [Field.respiratoryRate: .number(14.6), Field.source: .text("Health Connect")])
        try await post("2026-11-19 06:22", [Field.skinTemperatureChange: .number(-0.25)])
        try await post("2026-11-20 08:10", [Field.bodyTemperature: .number(37.0)])
        try await post("2026-11-20 07:45", [Field.systolic: .number(128), Field.diastolic: .number(82), Field.heartRate: .number(64)])
        try await world.weigh(72.4, at: "2026-11-20 07:00", device: scale, on: service)
        return service
    }

    @Test(arguments: ServiceFactory.all)
    func everySignNewestFirstWithTheBloodPressureAsOneLine(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await Self.vitals(world)
            let model = VitalsModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.problem == nil)
            #expect(model.rows.map(\.time) == ["Nov 20, 2026 08:10", "Nov 20, 2026 07:45", "Nov 19, 2026 06:22",
                                               "Nov 19, 2026 06:21", "Nov 19, 2026 06:20", "Nov 18, 2026 07:40"])
            #expect(model.rows.map(\.sign) == ["Body temp.", "BP", "Skin temp.", "Breathing", "SpO2", "BP"])
            #expect(model.rows.map(\.value) == ["37.0 °C", "128/82 mmHg · pulse 64", "−0.25 °C", "14.6 breaths/min", "96.5 %",
                                                "118/76 mmHg"])
            // 128/82: stage 1 by the diastolic; 118/76: normal (ACC/AHA 2017, table 6).
            #expect(model.rows.map(\.category) == ["", "stage 1", "", "", "", "normal"])
            #expect(model.rows[3].source == "Watch · Health Connect", "the device, and the origin an import kept")
            #expect(model.rows[0].source == "Watch")
            #expect(model.selectedLine == "Body temp. 37.0 °C · Watch · Nov 20, 2026 08:10")

            model.moveSelection(by: 1)
            #expect(model.selectedLine == "BP 128/82 mmHg · pulse 64 · stage 1 hypertension (2017 ACC/AHA, one reading) · Watch · Nov 20, 2026 07:45")
            model.moveToBottom()
            #expect(model.selectedIndex == 5)
            model.moveSelection(by: 1)
            #expect(model.notice == "this is the oldest reading loaded")
        }
    }

    /// 37.0 °C is 98.6 °F; a wrist's −0.25 °C from its baseline is −0.45 °F (a difference: ×1.8, no 32).
    @Test func temperaturesAreInFahrenheitForSomeoneWhoWeighsInPounds() async throws {
        try await ViewModelWorld.run(.local) { world in
            let service = try await Self.vitals(world)
            try await service.updateProfile(Profile(massUnit: .lb))
            let model = VitalsModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.rows.first { $0.sign == "Body temp." }?.value == "98.6 °F")
            #expect(model.rows.first { $0.sign == "Skin temp." }?.value == "−0.45 °F")
            #expect(model.rows.first { $0.sign == "BP" }?.value == "128/82 mmHg · pulse 64", "a pressure has one unit")
        }
    }

    @Test func withoutVitalSignsTheListIsEmpty() async throws {
        try await ViewModelWorld.run(.local) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            try await world.weigh(72.4, at: "2026-11-20 07:00", device: scale, on: service)
            let model = VitalsModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.hasLoaded && model.rows.isEmpty && model.selectedLine == nil)
        }
    }
}
