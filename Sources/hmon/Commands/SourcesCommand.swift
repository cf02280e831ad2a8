import ArgumentParser
import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import HealthServer
import HMonCommandLine

/// `hmon sources`: the sync doctor (`show`, the default), and which way of a measurement is counted first
/// (`prefer`).
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Show each link's arrivals and the order sources are counted in; choose the source counted first.",
        subcommands: [SourcesShowCommand.self, SourcesPreferCommand.self],
        defaultSubcommand: SourcesShowCommand.self)
}

/// `hmon sources [show]`: each link, what came by it day by day, what it refused, and whether it has gone
/// silent; then each linked person's source order.
struct SourcesShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show each link's last arrival, its readings per kind and refusals over the last days, and mark one gone silent for a day.",
        discussion: """
            Counted by `hmon serve` as apps post and as it reads \(Wording.list(PulledSources.all.map { $0.sourceName })). Days are UTC days; a day with \
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
        let links = try await store.linkHealth(sinceDay: LinkHealth.day(of: now) - Int64(days) + 1)
        var orders: [SourcesText.PersonOrder] = []
        for user in try await store.users() where links.contains(where: { $0.link.userName == user.name }) {
            orders.append(SourcesText.PersonOrder(user: user.name, chosen: try await store.sourceOrders(userID: user.id)))
        }
        let report = SourcesText(links: links, orders: orders, days: days, now: now, linkKinds: LinkAddCommand.kinds)
        if json {
            print(try report.json())
        } else {
            printEscaped(report.text())
        }
    }
}

/// `hmon sources prefer KIND SOURCE`: counts one way first for a family of measurements (weigh-ins, nights, a
/// day's steps or energy),
/// as Apple Health's Data Sources order does, and settles every such reading by it at once.
struct SourcesPreferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefer",
        abstract: "Count one source first for weigh-ins, nights or a day's steps and energy that came by two ways (default: the device's own link, then a phone hub, then a file).",
        discussion: """
            KIND is one of \(MeasurementFamily.allCases.map(\.rawValue).joined(separator: ", ")); SOURCE is one of \
            \(ReadingPath.allCases.map(\.rawValue).joined(separator: ", ")), or default. The reading from the other \
            way is kept aside, never deleted: `hmon reading list --aside` shows it, and preferring its source again \
            counts it instead.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: ArgumentHelp("The account whose order changes (default: the signed-in user, or the only account).", valueName: "name"))
    var user: String?

    @Argument(help: ArgumentHelp("What the order is for.", valueName: "kind"))
    var kind: String

    @Argument(help: ArgumentHelp("The source to count first, or default.", valueName: "source"))
    var source: String

    func validate() throws {
        let family = try family()
        if let path = try path(), !family.ways.contains(path) {
            throw ValidationError("source \(path.rawValue) brings no \(family.label): pass one of "
                                  + family.ways.map(\.rawValue).joined(separator: ", ") + ", or default")
        }
    }

    private func family() throws -> MeasurementFamily {
        guard let family = MeasurementFamily(rawValue: kind.lowercased()) else {
            throw ValidationError("kind \(kind.prefix(40)) is not one hmon orders: pass one of "
                                  + MeasurementFamily.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return family
    }

    private func path() throws -> ReadingPath? {
        if source.lowercased() == "default" { return nil }
        guard let path = ReadingPath(rawValue: source.lowercased()) else {
            throw ValidationError("source \(source.prefix(40)) is not one of hmon's: pass "
                                  + ReadingPath.allCases.map(\.rawValue).joined(separator: ", ") + ", or default")
        }
        return path
    }

    func run() async throws {
        let opener = StoreOpener(db: database.db, user: user)
        let service = LocalHealthService(store: try await opener.openStore(.readWrite))
        let account = try await opener.actingUser(on: service)
        let family = try family()
        let preferred = try path()
        let counted = try await service.preferSource(preferred, for: family)
        printEscaped(SourcesText.preferred(user: account.name, family: family, order: SourceOrder(preferred: preferred), countedAgain: counted))
    }
}
