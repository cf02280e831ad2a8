import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The Energy screen's figures add up as a person reads them: Active + Resting is the Spent shown, and
/// Consumed − Spent the Net shown, however each part rounds; and a day without food claims no deficit.
@MainActor
struct EnergyFiguresAddUpTests {
    private func whole(_ text: String) -> Int? {
        Int(text.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "−", with: "-")
                .replacingOccurrences(of: "+", with: "").split(separator: " ").first ?? "")
    }

    @Test(arguments: ServiceFactory.all)
    func spentAndNetAreTheSumsOfTheFiguresShown(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            try await service.updateProfile(Profile(birthDate: Day(year: 1990, month: 1, day: 31), sex: .female, heightCm: 168))
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            let watch = try await world.device("Activity Tracker", named: "Watch", on: service)
            try await world.weigh(65, at: "2026-11-20 07:00", device: scale, on: service)
            try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("2026-11-20 12:00").millisecondsSince1970,
                                              data: [Field.calories: .number(2020)]))
            // 213.4 shows as 213 and resting (75% of 1,359) 1,019.25 as 1,019: rounded apart, their sum 1,232.65
            // would show as 1,233 and the net 787.35 as +787, one off the figures above them.
            try await service.post(NewMessage(sdid: watch.id, ts: ViewModelWorld.date("2026-11-20 17:00").millisecondsSince1970,
                                              data: [Field.activeEnergy: .number(213.4)]))

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()

            #expect(model.lines.map(\.value) == ["213", "1,019", "2,020"])
            let active = try #require(whole(model.lines[0].value)), resting = try #require(whole(model.lines[1].value))
            let consumed = try #require(whole(model.lines[2].value))
            let spent = try #require(model.spent.flatMap { whole($0.value) })
            let net = try #require(model.net.flatMap(whole))
            #expect(spent == active + resting, "Spent \(spent) is Active \(active) + Resting \(resting)")
            #expect(net == consumed - spent, "Net \(net) is Consumed \(consumed) − Spent \(spent)")
            #expect(model.net == "+788 kcal")
            #expect(model.netMeaning == "a surplus of 788 kcal")
            #expect(model.week.last?.net == "+788", "the week's row shows the same net")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func beforeAnyFoodIsLoggedTodayClaimsNoDeficit(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            try await service.updateProfile(Profile(birthDate: Day(year: 1990, month: 1, day: 31), sex: .female, heightCm: 168))
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            try await world.weigh(65, at: "2026-11-20 07:00", device: scale, on: service)

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()

            #expect(model.spent?.value == "1,019")
            #expect(model.net == "not logged")
            #expect(!model.netMeaning.contains("deficit"), "\(model.netMeaning)")
            #expect(model.week.last?.net == "not logged", "the screen and the week's row say the same")
        }
    }
}
