import ArgumentParser

/// `hmon hrv …`: heart rate variability beyond adding a measurement (`hmon add hrv`).
struct HRVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hrv",
        abstract: "Heart rate variability: the Welltory link.",
        subcommands: [HRVLinkCommand.self]
    )
}
