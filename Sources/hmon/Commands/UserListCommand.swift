import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon user list`: the accounts of a local store.
struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Print [{\"name\", \"full_name\", \"email\", \"since\"}…].")
    var json = false

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readOnly)
        let users = try await store.users()
        if json {
            let calendar = Calendar.current
            print(try ListingJSON.text(users.map {
                ["name": $0.name, "full_name": $0.fullName, "email": $0.email, "since": Day($0.createdOn, in: calendar).description]
            }))
            return
        }
        if users.isEmpty {
            printEscaped("\(store.location) has no account yet: create one with `hmon user add NAME`")
            return
        }
        let calendar = Calendar.current
        printEscaped(Formatting.table(["NAME", "FULL NAME", "EMAIL", "SINCE"],
                               users.map { [$0.name, $0.fullName, $0.email, Day($0.createdOn, in: calendar).description] }))
    }
}
