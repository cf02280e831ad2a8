import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon device add --type "Withings Device" --name "Bathroom scale"`.
struct DeviceAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a device.")

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("The device type's name or id (see `hmon device types`).", valueName: "type"))
    var type: String

    @Option(help: ArgumentHelp("A name for the device, e.g. \"Bathroom scale\".", valueName: "name"))
    var name: String

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        let types = try await opened.service.deviceTypes()
        guard let deviceType = types.first(where: { $0.id == type })
            ?? types.first(where: { $0.name.caseInsensitiveCompare(type) == .orderedSame || $0.uniqueName == type })
        else { throw HealthError.unknownDeviceType(type) }
        let device = try await opened.service.addDevice(name: name, typeID: deviceType.id)
        printEscaped("added \(device.name) (\(deviceType.name)) for \(opened.user.name): id \(device.id)")
    }
}
