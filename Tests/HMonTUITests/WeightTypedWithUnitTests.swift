import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing

/// The weigh-in prompt reads a weight typed with its unit, whichever unit the screen shows.
@MainActor
struct WeightTypedWithUnitTests {
    @Test func poundsTypedOnAKilogramsScreenAreSavedAsTheirKilograms() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.resize(to: Size(width: 120, height: 40))
        _ = await dashboard.press(.char("2"))
        let weights = try #require(dashboard.weights)
        _ = await dashboard.press(.char("a"))
        for character in "153 lb" { _ = await dashboard.press(.char(character)) }
        _ = await dashboard.press(.enter)
        #expect(weights.problem == nil, "\(weights.problem ?? "")")
        #expect(weights.prompt == nil, "saved")
        #expect(weights.rows.first?.weight == "69.4", "153 lb is 69.4 kg")
    }
}
