import ArgumentParser
import Foundation
import HealthCore
import HMonCommandLine

/// `hmon sources`: the sync doctor. Each link, what came by it day by day, what it refused, and whether it
/// has gone silent.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Show each link's last arrival, its readings per kind and refusals over the last days, and mark one gone silent for a day.",
        discussion: """
            Counted by `hmon serve` as apps post and as it reads Withings and Oura. Days are UTC days; a day with \
            none counts from the day the link was made. Exit code 0 whatever the links' state: read --json's \
            "silent" in scripts.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: ArgumentHelp("How many days to count, ending today (1–\(LinkHealth.daysKept)).", valueName: "n"))
    var days = 7

    @Flag(help: "Print [{\"id\", \"kind\", \"user\", \"made\", \"last_arrival\", \"silent\", \"readings\", \"days_with_none\", \"refusals\"}…].")
    var json = false

    func validate() throws {
        guard (1...Int(LinkHealth.daysKept)).contains(days) else {
            throw ValidationError("--days \(days) is outside 1–\(LinkHealth.daysKept): pass --days 7, for example")
        }
    }

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readOnly)
        let now = Date()
        let report = SourcesText(links: try await store.linkHealth(sinceDay: LinkHealth.day(of: now) - Int64(days) + 1),
                                 days: days, now: now)
        if json {
            print(try report.json())
        } else {
            printEscaped(report.text())
        }
    }
}
