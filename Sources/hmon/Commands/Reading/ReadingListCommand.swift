import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon reading list [--field F] [--since DATE] [--until DATE] [--limit N]`: newest first, with the ids
/// `hmon reading edit` and `delete` take.
struct ReadingListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your readings, newest first, with their ids.")

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Only readings carrying this field (weight, calories, …).", valueName: "field"))
    var field: String?

    @Option(help: ArgumentHelp("From this day or time on (\"2026-11-01\", \"2026-11-01 07:00\").", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Up to this day (included) or time.", valueName: "date"))
    var until: String?

    @Option(help: "At most this many readings (default 20).")
    var limit: Int = 20

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit \(limit) is not a positive number") }
    }

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let from = try since.map { try LocalTime.parseBound($0, option: "--since", endOfDay: false, now: now, calendar: calendar) }
        let to = try until.map { try LocalTime.parseBound($0, option: "--until", endOfDay: true, now: now, calendar: calendar) }
        let opened = try await StoreOpener(store).open(.readOnly)
        let readings = try await opened.service.readings(ReadingsQuery(
            from: from?.millisecondsSince1970 ?? 0, to: to?.millisecondsSince1970 ?? .max, field: field, order: .desc, limit: limit))
        if readings.isEmpty {
            printEscaped("no readings\(field.map { " carrying \($0)" } ?? "")\(since != nil || until != nil ? " in that period" : ""): add one with `hmon add weight 72.4`")
            return
        }
        let overview = try await opened.service.devicesOverview()
        let profile = try await opened.service.profile()
        let devices = Dictionary(overview.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = readings.map { reading in
            [reading.mid, LocalTime.format(reading.date, calendar: calendar), devices[reading.sdid]?.name ?? reading.sdid,
             ReadingText.values(reading.data, manifest: overview.manifests[reading.sdtid], massUnit: profile.massUnit,
                               energyUnit: profile.energyUnit)]
        }
        printEscaped(Formatting.table(["ID", "TIME", "DEVICE", "VALUES"], rows))
    }
}
