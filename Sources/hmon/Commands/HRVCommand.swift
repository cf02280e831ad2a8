import ArgumentParser

/// `hmon hrv …`: heart rate variability beyond adding a measurement (`hmon add hrv`).
struct HRVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hrv",
        abstract: "Heart rate variability: your measurements, and the Welltory link.",
        subcommands: [HRVListCommand.self, HRVShowCommand.self, HRVLinkCommand.self]
    )
}
