import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon user list`: the accounts of a local store.
struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readOnly)
        let users = try await store.users()
        if users.isEmpty {
            printEscaped("\(store.location) has no account yet: create one with `hmon user add NAME`")
            return
        }
        let calendar = Calendar.current
        printEscaped(Formatting.table(["NAME", "FULL NAME", "EMAIL", "SINCE"],
                               users.map { [$0.name, $0.fullName, $0.email, Day($0.createdOn, in: calendar).description] }))
    }
}
