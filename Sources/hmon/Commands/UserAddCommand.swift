import ArgumentParser
import HealthCore
import HMonCommandLine

/// `hmon user add NAME`: opens an account; the password comes from a prompt (echo off) or standard input.
struct UserAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create an account.",
        discussion: "The password is asked twice on the terminal, or read from the first line of standard input with --password-stdin."
    )

    @Argument(help: "The login name (letters, digits, . _ - @).")
    var name: String

    @Option(help: "The person's full name.")
    var fullName: String = ""

    @Option(help: "The person's email address.")
    var email: String = ""

    @Flag(help: "Read the password from standard input instead of asking.")
    var passwordStdin = false

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        try AccountRules.check(name: name)
        let store = try StoreOpener(database).openStore()
        // Refuse a taken name before asking for a password that would be thrown away.
        if try await store.user(named: name) != nil { throw HealthError.nameTaken(name) }
        let password = passwordStdin ? try PasswordReader.fromStandardInput() : try PasswordReader.promptTwice(for: name)
        let user = try await store.createUser(NewAccount(name: name, fullName: fullName, email: email, password: password))
        print("created user \(user.name) in \(store.path)")
    }
}
