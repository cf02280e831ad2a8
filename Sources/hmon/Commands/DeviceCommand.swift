import ArgumentParser

/// `hmon device …`: the user's scales, trackers and food logs.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "List, add, rename, merge and delete devices.",
        subcommands: [DeviceListCommand.self, DeviceAddCommand.self, DeviceRenameCommand.self, DeviceDeleteCommand.self,
                      DeviceMergeCommand.self, DeviceTypesCommand.self],
        defaultSubcommand: DeviceListCommand.self
    )
}
