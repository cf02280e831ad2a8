import ArgumentParser

/// `hmon reading …`: the readings themselves, by id: list them, correct one, delete one.
struct ReadingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reading",
        abstract: "List, correct and delete readings.",
        subcommands: [ReadingListCommand.self, ReadingEditCommand.self, ReadingDeleteCommand.self],
        defaultSubcommand: ReadingListCommand.self
    )
}
