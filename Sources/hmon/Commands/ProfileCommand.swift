import ArgumentParser

/// `hmon profile …`: what the energy math needs to know, and unit preferences.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or change the profile (height, birth date, sex, units, BMR formula).",
        subcommands: [ProfileShowCommand.self, ProfileSetCommand.self],
        defaultSubcommand: ProfileShowCommand.self
    )
}
