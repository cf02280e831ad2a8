import HealthCore
import HealthModel
import HMonCommandLine

/// Finds the device a reading goes to: the one named by `--device` (id or name), else the user's
/// first device whose readings can carry the field.
enum DevicePicker {
    static func pick(_ spec: String?, recording field: String, for opened: OpenedService,
                     suggestedType: BuiltInDeviceType) async throws -> Device {
        let devices = try await opened.service.devices()
        if let spec {
            let device = try DeviceLookup.named(spec, in: devices)
            guard try await opened.service.manifest(ofType: device.dtid).field(field) != nil else {
                throw CommandError("\(device.name) does not record \(label(field)): pass another --device (see `hmon device list`)")
            }
            return device
        }
        // None named: the first that records the field, or one made for it (a first run should not stop at
        // "add a device"), said on stderr so the reading's own line stays the one line a script reads.
        let chosen = try await opened.service.device(recording: field, orMake: suggestedType)
        if chosen.created {
            noteEscaped("made the device \"\(chosen.device.name)\" (\(suggestedType.deviceType.name)) for \(label(field)); "
                         + "rename it with `hmon device rename`")
        }
        return chosen.device
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
