import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon device rename "Bathroom scale" "Hall scale"`.
struct DeviceRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a device.")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The device's name or id, as `hmon device list` shows it.", valueName: "device"))
    var device: String

    @Argument(help: ArgumentHelp("Its new name.", valueName: "name"))
    var name: String

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        let found = try await DeviceLookup.named(device, on: opened.service)
        let renamed = try await opened.service.renameDevice(id: found.id, to: name)
        printEscaped("renamed \(found.name) to \(renamed.name)")
    }
}

/// A device the person names by id or by name (case aside), as `hmon device list` shows both.
enum DeviceLookup {
    static func named(_ spec: String, on service: any HealthService) async throws -> Device {
        try named(spec, in: try await service.devices())
    }

    static func named(_ spec: String, in devices: [Device]) throws -> Device {
        guard let device = devices.first(where: { $0.id == spec })
            ?? devices.first(where: { $0.name.caseInsensitiveCompare(spec) == .orderedSame })
        else { throw HealthError.unknownDevice(spec) }
        return device
    }
}
