import Foundation
import HealthModel

/// The device a reading goes to when the person never made one: a first run should not stop at "add a
/// device of type …". Asked for the food log (or a scale) and there is none, the service makes one with a
/// plain name, and says so, so the person is not surprised by a device they did not add.
public struct DeviceForReading: Sendable, Equatable {
    public var device: Device
    /// True when it was made just now, for the first reading.
    public var created: Bool
    /// Whether its type's manifest has a `source` field: where a reading came from (`ReadingOrigin`) is kept
    /// only where the device can hold it, so a reading never fails for the field.
    public var keepsSource: Bool = false
}

extension BuiltInDeviceType {
    /// The name a device made for a person gets: "Food log", "Scale".
    public var firstDeviceName: String {
        switch self {
        case .calorieTracker: "Food log"
        case .withings, .scale: "Scale"
        case .activityTracker: "Activity tracker"
        case .hrvMeter: "HRV meter"
        }
    }
}

extension HealthService {
    /// The user's first device whose readings carry `field`, or a new one of `type` named
    /// `type.firstDeviceName` when they have none. With `preferringType`, a device of `type` that carries
    /// the field comes before the others: a phone's blood pressure belongs on the activity tracker, not on
    /// the Withings account's scale that could also hold one.
    public func device(recording field: String, orMake type: BuiltInDeviceType, preferringType: Bool = false) async throws -> DeviceForReading {
        let devices = try await devices()
        var manifests: [String: Manifest] = [:]
        for typeID in Set(devices.map(\.dtid)) { manifests[typeID] = try await manifest(ofType: typeID) }
        func keepsSource(_ device: Device) -> Bool { manifests[device.dtid]?.field(Field.source) != nil }
        if preferringType, let device = devices.filter({ $0.dtid == type.deviceType.id }).first(recording: field, manifests: manifests) {
            return DeviceForReading(device: device, created: false, keepsSource: keepsSource(device))
        }
        if let device = devices.first(recording: field, manifests: manifests), !preferringType || device.dtid == type.deviceType.id {
            return DeviceForReading(device: device, created: false, keepsSource: keepsSource(device))
        }
        do {
            let made = try await addDevice(name: type.firstDeviceName, typeID: type.deviceType.id)
            if manifests[made.dtid] == nil { manifests[made.dtid] = try await manifest(ofType: made.dtid) }
            return DeviceForReading(device: made, created: true, keepsSource: keepsSource(made))
        } catch {
            // Insert or get: a person's first posts arrive in parallel (a phone sends weight and steps at
            // once), and the one that lost the race for the name finds the device the winner made.
            let devices = try await self.devices()
            for typeID in Set(devices.map(\.dtid)) where manifests[typeID] == nil { manifests[typeID] = try await manifest(ofType: typeID) }
            let candidates = preferringType ? devices.filter { $0.dtid == type.deviceType.id } : devices
            guard let device = candidates.first(recording: field, manifests: manifests) else { throw error }
            return DeviceForReading(device: device, created: false, keepsSource: keepsSource(device))
        }
    }
}
