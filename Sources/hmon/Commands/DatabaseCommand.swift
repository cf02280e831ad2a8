import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// `hmon db copy FROM TO`: moves a whole store between SQLite and PostgreSQL.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Work on whole stores: copy one into another (SQLite file or PostgreSQL URL).",
        subcommands: [DatabaseCopyCommand.self])
}

struct DatabaseCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy every account, device, reading, token and client of one store into another, in one transaction.",
        discussion: """
            FROM and TO are each a database file or a postgres://USER@HOST[:PORT]/DATABASE URL (the password \
            from PGPASSWORD or ~/.pgpass). The target is made when missing; one that already holds accounts or \
            readings is refused unless --force, which replaces what it holds.
            """)

    @Argument(help: ArgumentHelp("The store to copy from (read only).", valueName: "from"))
    var from: String

    @Argument(help: ArgumentHelp("The store to copy into.", valueName: "to"))
    var to: String

    @Flag(help: "Replace what the target holds.")
    var force = false

    func run() async throws {
        let source = try await StoreOpener(db: from).openStore(.readOnly)
        let target = try await StoreOpener(db: to).openStore(.create)
        let terminal = isatty(STDERR_FILENO) == 1
        let copied = try await StoreCopy.copy(from: source, to: target, replacing: force) { progress in
            guard terminal else { return }
            let line = "copying \(progress.table): \(progress.copied) of \(progress.total)"
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let users = copied["users"] ?? 0, devices = copied["devices"] ?? 0, readings = copied["messages"] ?? 0
        let tokens = copied["tokens"] ?? 0, clients = copied["oauth_clients"] ?? 0
        printEscaped("copied \(source.location) to \(target.location): \(users) accounts, \(devices) devices, "
                     + "\(readings) readings, \(tokens) tokens, \(clients) clients")
    }
}
