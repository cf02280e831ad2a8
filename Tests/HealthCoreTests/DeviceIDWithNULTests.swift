import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// A device id holding NUL, in a rename or a delete, is refused in the same words on both engines. They
/// used to differ: SQLite looked the id up and found no device, PostgreSQL refused the text with its own
/// error about what it cannot keep.
@Suite struct DeviceIDWithNULTests {
    @Test(arguments: StoreEngine.available) func renamingOrDeletingADeviceByAnIDWithNULIsRefusedAlike(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, alice) = try await world.user("alice")
        let scale = try await world.device(.withings, named: "Scale", for: alice)
        let refusal = HealthError.invalidValue("sdid holds a NUL character (U+0000): remove it")

        await #expect(throws: refusal) { try await world.store.renameDevice(id: scale.id + "\0", userID: user.id, to: "Hall scale") }
        await #expect(throws: refusal) { try await world.store.deleteDevice(id: scale.id + "\0", userID: user.id, onlyIfEmpty: false) }
        #expect(try await alice.devices().map(\.name) == ["Scale"], "nothing changed")
    }
}
