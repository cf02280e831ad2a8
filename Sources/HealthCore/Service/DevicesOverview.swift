import Foundation
import HealthModel

/// Everything the devices screen shows, fetched together: the user's card, their devices, the
/// device types to add from, the manifests of the types in use and each device's latest reading.
public struct DevicesOverview: Sendable, Equatable {
    public var user: User
    /// The user's devices, oldest first.
    public var devices: [Device]
    /// Every device type, by name.
    public var deviceTypes: [DeviceType]
    /// The manifest of each type the user's devices have, by type id.
    public var manifests: [String: Manifest]
    /// Each device's latest reading, by device id: its latest weight when its manifest has one.
    public var latestReadings: [String: Message]

    public init(user: User, devices: [Device], deviceTypes: [DeviceType], manifests: [String: Manifest],
                latestReadings: [String: Message]) {
        self.user = user
        self.devices = devices
        self.deviceTypes = deviceTypes
        self.manifests = manifests
        self.latestReadings = latestReadings
    }
}
