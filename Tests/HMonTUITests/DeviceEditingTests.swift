import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage
import Terminal
import Testing

/// Issue 28, item 6: devices are renamed and deleted where they are listed, with the table keys (`e`, `d`);
/// deleting one that holds readings asks a second time and says how many go with it. And the add-device
/// list moves with j/k, as every list does (`j j Enter` used to add the first type).
@MainActor
struct DeviceEditingTests {
    private func devices(_ world: DemoWorld) async throws -> [Device] {
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        return try await service.devices()
    }

    @Test func eRenamesTheSelectedDevice() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 80, height: 24)
        _ = await dashboard.press(.char("1"))
        let first = try #require(try await devices(world).first)
        _ = await dashboard.press(.char("e"))
        #expect(frame(of: dashboard, size: size).contains("New name for \(first.name)"))
        _ = await dashboard.press(.ctrl("u"))
        for key in "Hall scale" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        let renamed = try #require(try await devices(world).first { $0.id == first.id })
        #expect(renamed.name == "Hall scale")
        #expect(frame(of: dashboard, size: size).contains("Hall scale"))
    }

    @Test func dAsksTwiceForADeviceWithReadingsAndSaysHowMany() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.char("1"))
        let first = try #require(try await devices(world).first)
        _ = await dashboard.press(.char("d"))
        #expect(frame(of: dashboard, size: size).contains("Delete \(first.name)? y/n"))
        _ = await dashboard.press(.char("y"))
        let second = frame(of: dashboard, size: size)
        let count = try #require(second.firstMatch(of: /has (\d+) readings: delete them with it\?/)).output.1
        #expect(Int(count)! > 100, "the demo's scale holds months of weigh-ins: \(second)")
        #expect(try await devices(world).contains { $0.id == first.id }, "kept until the second yes")
        _ = await dashboard.press(.char("n"))
        #expect(try await devices(world).contains { $0.id == first.id }, "n keeps it")

        _ = await dashboard.press(.char("d"))
        _ = await dashboard.press(.char("y"))
        _ = await dashboard.press(.char("y"))
        #expect(!(try await devices(world).contains { $0.id == first.id }))
        #expect(frame(of: dashboard, size: size).contains("deleted \(first.name) and its \(count) readings"))
    }

    @Test func anEmptyDeviceGoesAfterOneQuestion() async throws {
        let world = try await DemoWorld()
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        let spare = try await service.addDevice(name: "Spare", typeID: BuiltInDeviceType.scale.deviceType.id)
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("1"))
        for _ in try await service.devices() { _ = await dashboard.press(.char("j")) }   // to the last, the new one
        #expect(dashboard.app.devices.selectedDevice?.id == spare.id)
        _ = await dashboard.press(.char("d"))
        _ = await dashboard.press(.char("y"))
        #expect(!(try await service.devices().contains { $0.id == spare.id }))
        #expect(frame(of: dashboard, size: Size(width: 120, height: 40)).contains("deleted Spare (it had no readings)"))
    }

    @Test func theAddDeviceListMovesWithJAndK() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("1"))
        _ = await dashboard.press(.char("a"))
        let types = try #require(dashboard.app.devices.adding?.typeNames)
        _ = await dashboard.press(.char("j"))
        _ = await dashboard.press(.char("j"))
        _ = await dashboard.press(.char("k"))
        #expect(dashboard.app.devices.adding?.selectedType == 1, "j j k lands on the second of \(types)")
    }
}
