import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon client add NAME [--redirect-uri URI] [--user NAME]`: registers an OAuth client of `hmon serve`.
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Manage the OAuth clients of `hmon serve`.",
        subcommands: [ClientAddCommand.self])
}

/// Prints the client id and its secret once: only a hash of the secret is kept.
struct ClientAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Register an OAuth client; prints its id and secret (shown only this once).")

    @OptionGroup var database: DatabaseOption

    @Argument(help: "A name for the client (\"Bathroom scale bridge\").")
    var name: String

    @Option(name: .customLong("redirect-uri"),
            help: ArgumentHelp("Where sign-ins send their token or code: an http(s):// address or the app's own scheme (never javascript: or data:).", valueName: "uri"))
    var redirectURI: String?

    @Option(help: ArgumentHelp("The account whose devices the client may post to with its own token (client_credentials): a scale bridge's owner.",
                               valueName: "name"))
    var user: String?

    func validate() throws {
        if let redirectURI {
            do {
                try RedirectURIRules.check(redirectURI)
            } catch let error as HealthError {
                throw ValidationError("--redirect-uri: \(error.message)")
            }
        }
    }

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readWrite)
        var ownerID: String?
        if let user {
            guard let owner = try await store.user(named: user) else { throw HealthError.unknownUser(user) }
            ownerID = owner.id
        }
        let (client, secret) = try await store.createClient(name: name, redirectURI: redirectURI, ownerID: ownerID)
        printEscaped("client id:     \(client.id)")
        printEscaped("client secret: \(secret)")
        printEscaped("Keep the secret safe: it is not shown again (hmon keeps only its hash).")
    }
}
