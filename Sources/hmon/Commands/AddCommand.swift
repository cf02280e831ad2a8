import ArgumentParser

/// `hmon add …`: record a reading from a script or by hand.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a reading.",
        subcommands: [AddWeightCommand.self, AddEnergyCommand.self, AddHRVCommand.self]
    )
}
