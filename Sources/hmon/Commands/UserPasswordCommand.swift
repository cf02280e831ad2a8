import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon user password NAME`: sets a new password and signs the account out everywhere.
struct UserPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Set a new password (ends the account's sessions and tokens)."
    )

    @Argument(help: "The login name.")
    var name: String

    @Flag(help: "Read the new password from standard input instead of asking.")
    var passwordStdin = false

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readWrite)
        guard let user = try await store.user(named: name) else { throw HealthError.unknownUser(name) }
        let password = passwordStdin ? try PasswordReader.fromStandardInput() : try PasswordReader.promptTwice(for: user.name)
        try await store.setPassword(password, userID: user.id)
        printEscaped("new password set for \(user.name); its sessions were ended")
    }
}
