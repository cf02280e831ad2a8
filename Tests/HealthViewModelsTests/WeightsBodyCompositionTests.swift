import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The weights screen's summary ends with body fat and lean mass when a scale measures body fat: the trend
/// worked by hand in `BodyCompositionTrendTests` (80 kg at 25 % and, two days later, 78 kg at 24 %: body fat
/// 24.855 % moving −0.5075 points a week, lean mass 59.8956 kg moving −0.3654 kg a week).
@MainActor
struct WeightsBodyCompositionTests {
    @Test(arguments: ServiceFactory.all)
    func bodyFatAndLeanMassFollowTheWeightFigures(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Withings Device", named: "Bathroom scale", on: service)
            let manifest = try await service.manifest(ofType: scale.dtid)
            let model = WeightsModel(service: service, device: scale, manifest: manifest, preferred: nil, clock: world.clock)
            for (local, kg, fat) in [("2026-11-18 07:30", 80.0, 25.0), ("2026-11-20 07:30", 78.0, 24.0)] {
                try await service.post(NewMessage(sdid: scale.id, ts: ViewModelWorld.date(local).millisecondsSince1970,
                                                  data: [Field.weight: .number(kg), Field.fatRatio: .number(fat)]))
            }

            await model.refresh().complete()

            #expect(model.summary.suffix(2).map(\.text) == ["body fat 24.9 % ▼ 0.51 pt/week", "lean 59.9 kg ▼ 0.37 kg/week"])
            // Less fat is welcome; less lean mass is not.
            #expect(model.summary.suffix(2).map(\.isGood) == [true, false])
            // Each weigh-in's own figures in the table: lean mass as weight less fat mass, 78 × 0.76 = 59.28 kg.
            #expect(model.hasBodyFat && model.hasLeanMass)
            #expect(model.rows.map(\.bodyFat) == ["24.0", "25.0"])
            #expect(model.rows.map(\.leanMass) == ["59.3", "60.0"])
        }
    }

    @Test func aWeighInWithoutBodyFatLeavesTheColumnsOut() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        let scale = try await world.device("Withings Device", named: "Bathroom scale", on: service)
        let model = WeightsModel(service: service, device: scale, manifest: try await service.manifest(ofType: scale.dtid),
                                 preferred: nil, clock: world.clock)
        try await service.post(NewMessage(sdid: scale.id, ts: ViewModelWorld.date("2026-11-20 07:30").millisecondsSince1970,
                                          data: [Field.weight: .number(78)]))
        await model.refresh().complete()
        #expect(!model.hasBodyFat && !model.hasLeanMass)
        #expect(model.rows.map(\.leanMass) == [""])
    }
}
