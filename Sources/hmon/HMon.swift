import ArgumentParser

/// `hmon`: with no subcommand, the dashboard; the subcommands work on the same store from scripts.
@main
struct HMon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hmon",
        abstract: "A terminal health monitor: weight readings and today's energy balance.",
        version: "0.1.0",
        subcommands: [KeysCommand.self]
    )

    func run() async throws {
        print("hmon: the dashboard is not built yet")
    }
}
