import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// One person, one default scale: `a` on Weights says which scale the weigh-in goes to, and it is the
/// oldest scale whichever device was picked last on Devices, as `hmon add weight` and an import do.
@MainActor
struct DefaultScaleTests {
    @Test func aOnWeightsSavesToTheOldestScaleWhicheverDeviceWasPickedAndSaysSo() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let gym = try await world.store.addDevice(name: "Gym scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id,
                                                  now: DemoWorld.now)
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        // The newer scale picked on Devices, as a person browsing there would.
        dashboard.app.devices.select(deviceID: gym.id)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("a"))
        for key in "68.4" { _ = await dashboard.press(.char(key)) }
        #expect(frame(of: dashboard, size: size).contains("New weight in kg on Bathroom scale: 68.4"))
        _ = await dashboard.press(.enter)

        let onBathroom = try await world.store.lastMessages(deviceID: try #require(dashboard.weights?.device.id), userID: user.id,
                                                            count: 1, field: Field.weight)
        #expect(onBathroom.first?.data[Field.weight] == .number(68.4))
        #expect(try await world.store.lastMessages(deviceID: gym.id, userID: user.id, count: 1, field: nil).isEmpty,
                "nothing on the scale that was only picked")
        #expect(dashboard.weights?.device.name == "Bathroom scale")
    }
}
