import ArgumentParser
import Foundation
import HealthCore
import HealthModel
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
        try AccountRules.check(fullName: fullName)
        let opener = StoreOpener(database)
        var password: String?
        if let existing = try await Self.existingStore(opener) {
            // Refuse a taken name before asking for a password that would be thrown away.
            try await existing.checkNameIsFree(name)
        } else {
            // A new store is made only once there is a password to put in it.
            password = try readPassword()
        }
        let store = try await opener.openStore(.create)
        let user = try await store.createUser(NewAccount(name: name, fullName: fullName, email: email,
                                                         password: try password ?? readPassword()))
        printEscaped("created user \(user.name) in \(store.location)\(store.wasCreated ? " (a new hmon store)" : "")")
    }

    /// The store when there is one already; nil for a missing or empty file.
    private static func existingStore(_ opener: StoreOpener) async throws -> (any HealthStore)? {
        do {
            return try await opener.openStore(.readWrite)
        } catch HealthError.unusableStore(let store) where store.reason == .noStore {
            return nil
        }
    }

    private func readPassword() throws -> String {
        passwordStdin ? try PasswordReader.fromStandardInput() : try PasswordReader.promptTwice(for: name)
    }
}
