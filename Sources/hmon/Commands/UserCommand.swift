import ArgumentParser

/// `hmon user …`: accounts on a local store.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage accounts.",
        subcommands: [UserAddCommand.self, UserListCommand.self, UserPasswordCommand.self]
    )
}
