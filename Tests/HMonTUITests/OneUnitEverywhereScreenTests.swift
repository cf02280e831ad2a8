import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage
import Terminal
import Testing

/// Issue 28, item 4: with a lb/kJ profile no screen says kg or kcal (Energy used to say "weight 72.4 kg"),
/// and with kg/kcal none says lb or kJ, at 80×24 and 120×40, with the help and each screen's own state.
@MainActor
struct OneUnitEverywhereScreenTests {
    @Test(arguments: [(MassUnit.lb, EnergyUnit.kJ, ["kg", "kcal"]), (MassUnit.kg, EnergyUnit.kcal, ["lb", "kJ"])])
    func noScreenSaysAnotherUnit(mass: MassUnit, energy: EnergyUnit, foreign: [String]) async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        var profile = try await world.store.profile(userID: user.id)
        profile.massUnit = mass
        profile.energyUnit = energy
        try await world.store.updateProfile(profile, userID: user.id)
        let dashboard = try await world.dashboard()
        for (i, _) in ScreenRegistry.tabs.enumerated() {
            _ = await dashboard.press(.char(Character(String(i + 1))))
            for size in [Size(width: 80, height: 24), Size(width: 120, height: 40)] {
                // The unit key's hint names both units ("u kg/lb"): it says what the key switches between.
                let text = frame(of: dashboard, size: size).replacingOccurrences(of: "kg/lb", with: "")
                let words = Set(text.split(whereSeparator: { !$0.isLetter }).map(String.init))
                let stray = foreign.filter(words.contains)
                #expect(stray.isEmpty, "\(dashboard.app.screen) at \(size.width)×\(size.height) says \(stray):\n\(text)")
            }
        }
    }
}
