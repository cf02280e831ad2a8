import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// Devices can be renamed and deleted (issues 26 and 28): by their owner only, with a name that follows
/// the rules for new devices, and a device with readings is kept unless its readings are to go with it.
@Suite struct DeviceCorrectionTests {
    @Test(arguments: StoreEngine.available) func aDeviceIsRenamedByItsOwnerToAFreeName(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user("alice")
        let (bob, _) = try await world.user("bob")
        let scale = try await world.device(.withings, named: "Scale", for: alice)
        _ = try await world.device(.calorieTracker, named: "Food log", for: alice)

        let renamed = try await alice.renameDevice(id: scale.id, to: "  Hall scale ")
        #expect(renamed.name == "Hall scale")
        #expect(try await alice.devices().map(\.name).sorted() == ["Food log", "Hall scale"])
        await #expect(throws: HealthError.invalidValue("you already have a device named \"food LOG\": choose another name")) {
            try await alice.renameDevice(id: scale.id, to: "food LOG")
        }
        await #expect(throws: HealthError.self) { try await alice.renameDevice(id: scale.id, to: "Evil\u{1B}[2J") }
        await #expect(throws: HealthError.notYourDevice(scale.id)) {
            try await world.store.renameDevice(id: scale.id, userID: bob.id, to: "Mine")
        }
        // Renaming to its own name, in other letters, is no clash with itself.
        #expect(try await alice.renameDevice(id: scale.id, to: "HALL SCALE").name == "HALL SCALE")
    }

    @Test(arguments: StoreEngine.available) func aDeviceWithReadingsIsKeptUnlessTheyGoWithIt(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user("alice")
        let (bob, bobService) = try await world.user("bob")
        let scale = try await world.device(.withings, named: "Scale", for: alice)
        let spare = try await world.device(.withings, named: "Spare", for: alice)
        let bobScale = try await world.device(.withings, named: "Scale", for: bobService)
        let now = Date().millisecondsSince1970
        for (i, kg) in [72.4, 72.1, 71.9].enumerated() {
            try await alice.post(NewMessage(sdid: scale.id, ts: now - Int64(i) * 86_400_000, data: [Field.weight: .number(kg)]))
        }
        try await bobService.post(NewMessage(sdid: bobScale.id, ts: now, data: [Field.weight: .number(80)]))

        #expect(try await alice.deleteDevice(id: scale.id, withReadings: false) == DeviceDeletion(deleted: false, readings: 3))
        #expect(try await alice.devices().count == 2, "kept, with its readings")
        #expect(try await alice.deleteDevice(id: spare.id, withReadings: false) == DeviceDeletion(deleted: true, readings: 0))
        await #expect(throws: HealthError.notYourDevice(scale.id)) {
            try await world.store.deleteDevice(id: scale.id, userID: bob.id, onlyIfEmpty: false)
        }
        #expect(try await alice.deleteDevice(id: scale.id, withReadings: true) == DeviceDeletion(deleted: true, readings: 3))
        #expect(try await alice.devices().isEmpty)
        #expect(try await world.store.lastMessages(deviceID: bobScale.id, userID: bob.id, count: 10).count == 1, "bob's stay")
        await #expect(throws: HealthError.unknownDevice(scale.id)) { try await alice.deleteDevice(id: scale.id, withReadings: true) }
    }
}
