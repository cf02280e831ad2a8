import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import SQLiteStorage
import PostgresStorage

/// `hmon demo [--db PATH] [--force]`: a store with the demo account (demo / demo) to try hmon on.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create the demo store (user demo, password demo) with six months of readings."
    )

    @Option(help: ArgumentHelp("Where (default: $XDG_DATA_HOME/hmon/demo.sqlite).", valueName: "path"))
    var db: String?

    @Flag(help: "Rebuild the demo account if the store already has one (its readings are replaced).")
    var force = false

    func run() async throws {
        if let db, PostgresLocation.isURL(db) { throw StoreOpener.demoNeedsAFile(db) }
        let url = db.map { URL(fileURLWithPath: $0) } ?? HMonPaths(environment: ProcessInfo.processInfo.environment).demoDatabase
        let store = try LocalStore(url: url)
        if let existing = try await store.user(named: DemoData.userName) {
            guard force else {
                printEscaped("the demo account is already in \(store.path): pass --force to rebuild it")
                return
            }
            try await store.deleteUser(id: existing.id)
        }
        try await DemoData.fill(store)
        printEscaped("demo store ready in \(store.path): user \(DemoData.userName), password \(DemoData.password)")
    }
}
