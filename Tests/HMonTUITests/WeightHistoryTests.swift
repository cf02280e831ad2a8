import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// With a second scale the weights screen is one history: every row names its scale, `f` shows one.
@MainActor
struct WeightHistoryTests {
    @Test func aSecondScalesWeighInJoinsTheTableWithItsName() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let gym = try await world.store.addDevice(name: "Gym scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
        let evening = DemoWorld.now.addingTimeInterval(-30 * 60)   // 17:30, after the demo's morning weigh-in
        try await world.store.post(NewMessage(sdid: gym.id, ts: evening.millisecondsSince1970, data: [Field.weight: .number(70.1)]),
                                   userID: user.id, now: DemoWorld.now)
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))

        let all = frame(of: dashboard, size: size)
        #expect(all.contains("Weight in kg · all scales"))
        #expect(all.contains("Scale"))
        let firstRow = try #require(all.split(separator: "\n").first { $0.contains("Fri Nov 20, 2026  17:30") })
        #expect(firstRow.contains("70.1") && firstRow.contains("Gym scale"), "the newest weigh-in, from the gym, comes first")

        _ = await dashboard.press(.char("f"))
        let one = frame(of: dashboard, size: size)
        #expect(one.contains("Weight in kg · Bathroom scale"))
        #expect(!one.contains("17:30"), "the bathroom scale's own readings only")
        #expect(one.contains("trend "), "the summary stays the person's")
    }
}
