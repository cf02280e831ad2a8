import ArgumentParser

/// `hmon device …`: the user's scales, trackers and food logs.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "List and add devices.",
        subcommands: [DeviceListCommand.self, DeviceAddCommand.self, DeviceTypesCommand.self],
        defaultSubcommand: DeviceListCommand.self
    )
}
