import Foundation
import Testing
@testable import HealthModel

/// Where a reading goes when nobody names a device.
@Suite struct DeviceChoiceTests {
    static func device(_ name: String, _ type: BuiltInDeviceType) -> Device {
        Device(id: "d-\(name)", uid: "u1", dtid: type.deviceType.id, name: name, createdOn: Date(timeIntervalSince1970: 0))
    }

    static let manifests = Dictionary(uniqueKeysWithValues: BuiltInDeviceType.allCases.map { ($0.deviceType.id, $0.manifest) })

    @Test func theFirstDeviceWhoseManifestHasTheFieldIsChosen() {
        let devices = [Self.device("Watch", .activityTracker), Self.device("Scale", .withings),
                       Self.device("Food log", .calorieTracker), Self.device("Old scale", .withings)]
        #expect(devices.first(recording: Field.weight, manifests: Self.manifests)?.name == "Scale")
        #expect(devices.first(recording: Field.calories, manifests: Self.manifests)?.name == "Food log")
        // Both a scale and a watch record a heart rate: the first in the list wins.
        #expect(devices.first(recording: Field.heartRate, manifests: Self.manifests)?.name == "Watch")
    }

    @Test func noDeviceIsChosenWhenNoneRecordsTheFieldOrItsTypeIsUnknown() {
        let watch = Self.device("Watch", .activityTracker)
        #expect([watch].first(recording: Field.weight, manifests: Self.manifests) == nil)
        #expect([Self.device("Scale", .withings)].first(recording: Field.weight, manifests: [:]) == nil)
        #expect([Device]().first(recording: Field.weight, manifests: Self.manifests) == nil)
    }
}
