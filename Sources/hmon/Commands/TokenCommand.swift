import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon token add --read-only | list | revoke ID`: personal tokens for Exist clients of `hmon serve`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Manage read-only personal tokens for `hmon serve`'s Exist API (Authorization: Token …).",
        subcommands: [TokenAddCommand.self, TokenListCommand.self, TokenRevokeCommand.self])
}

/// Prints the token once: only its hash is kept.
struct TokenAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Make a read-only personal token that does not expire; prints it (shown only this once).")

    @OptionGroup var database: DatabaseOption

    @Option(help: ArgumentHelp("The account the token reads (default: the signed-in user, or the only account).", valueName: "name"))
    var user: String?

    @Flag(name: .customLong("read-only"), help: "Required: personal tokens only read. Apps that write sign in through OAuth2.")
    var readOnly = false

    @Option(help: ArgumentHelp("What the token is for, shown by `hmon token list`.", valueName: "text"))
    var label = ""

    func validate() throws {
        if !readOnly {
            throw ValidationError("personal tokens are read-only: pass --read-only (an app that writes signs in through /authorize)")
        }
    }

    func run() async throws {
        let opener = StoreOpener(db: database.db, user: user)
        let service = LocalHealthService(store: try await opener.openStore(.readWrite))
        let account = try await opener.actingUser(on: service)
        let (id, token) = try await service.store.createPersonalToken(userID: account.id, label: label)
        printEscaped("token id: \(id)")
        printEscaped("token:    \(token)")
        printEscaped("Send it as \"Authorization: Token …\". Keep it safe: it is not shown again (hmon keeps only its hash).")
    }
}

struct TokenListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List personal tokens (never the tokens themselves).")

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Print [{\"id\", \"user\", \"access\", \"made\", \"label\"}…] (never the tokens themselves).")
    var json = false

    func run() async throws {
        // Read only: a store made before personal tokens existed is refused as "written by an older hmon",
        // with how to bring it up to date, rather than migrated by a command that only lists.
        let store = try await StoreOpener(database).openStore(.readOnly)
        let tokens = try await store.personalTokens()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        if json {
            print(try ListingJSON.text(tokens.map {
                ["id": $0.id, "user": $0.userName, "access": "read-only", "made": formatter.string(from: $0.createdAt), "label": $0.label]
            }))
            return
        }
        if tokens.isEmpty {
            printEscaped("No personal tokens: make one with `hmon token add --read-only`.")
            return
        }
        for token in tokens {
            printEscaped("\(token.id)  \(token.userName)  read-only  \(formatter.string(from: token.createdAt))  \(token.label)")
        }
    }
}

struct TokenRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a personal token by its id.")

    @OptionGroup var database: DatabaseOption

    @Argument(help: "The token's id, as `hmon token list` shows it.")
    var id: String

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readWrite)
        guard try await store.revokePersonalToken(id: id) else {
            throw CommandError("no personal token has the id \(id): see `hmon token list`")
        }
        printEscaped("Revoked \(id).")
    }
}
