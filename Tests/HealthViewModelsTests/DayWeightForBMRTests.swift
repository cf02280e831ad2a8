import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The Energy screen's BMR weighs the day as the insights and Exist's `resting_energy` do: the mean of the
/// day's weigh-ins, not the last of them.
@MainActor
struct DayWeightForBMRTests {
    @Test(arguments: ServiceFactory.all)
    func theBMRUsesTheMeanOfTheDaysWeighIns(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            try await service.updateProfile(Profile(birthDate: Day(year: 1990, month: 1, day: 31), sex: .female, heightCm: 168))
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            try await world.weigh(70, at: "2026-11-19 07:00", device: scale, on: service)
            try await world.weigh(65, at: "2026-11-20 07:00", device: scale, on: service)
            try await world.weigh(66, at: "2026-11-20 08:00", device: scale, on: service)

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()

            // Mifflin-St Jeor, woman, 168 cm, 36 years, at 65.5 kg (the day's mean): 655 + 1,050 − 180 − 161 = 1,364;
            // the last weigh-in alone (66 kg) would give 1,369.
            #expect(model.restingNote == "Resting: Mifflin-St Jeor BMR, 1,364 kcal/day", "\(model.restingNote)")
            #expect(model.restingDetail.contains("weight 65.5 kg"), "\(model.restingDetail)")
        }
    }
}
