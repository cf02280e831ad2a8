import HealthCore
import HMonCommandLine

/// Finds the device a reading goes to: the one named by `--device` (id or name), else the user's
/// first device whose readings can carry the field.
enum DevicePicker {
    static func pick(_ spec: String?, recording field: String, for opened: OpenedService,
                     suggestedType: BuiltInDeviceType) async throws -> Device {
        let devices = try await opened.service.devices()
        if let spec {
            guard let device = devices.first(where: { $0.id == spec })
                ?? devices.first(where: { $0.name.caseInsensitiveCompare(spec) == .orderedSame })
            else { throw HealthError.unknownDevice(spec) }
            guard try await opened.service.manifest(ofType: device.dtid).field(field) != nil else {
                throw CommandError("\(device.name) does not record \(label(field)): pass another --device (see `hmon device list`)")
            }
            return device
        }
        var manifests: [String: Manifest] = [:]
        for typeID in Set(devices.map(\.dtid)) { manifests[typeID] = try await opened.service.manifest(ofType: typeID) }
        if let device = devices.first(recording: field, manifests: manifests) { return device }
        let type = suggestedType.deviceType.name
        throw CommandError("\(opened.user.name) has no device that records \(label(field)): add one with `hmon device add --type \"\(type)\" --name NAME`")
    }

    /// How a person calls what a field holds.
    private static func label(_ field: String) -> String {
        switch field {
        case Field.calories: "energy consumed"
        case Field.activeEnergy: "active energy"
        default: field
        }
    }
}
