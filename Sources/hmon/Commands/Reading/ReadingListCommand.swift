import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon reading list [--field F] [--since DATE] [--until DATE] [--limit N] [--json]`: newest first, with the
/// ids `hmon reading edit` and `delete` take.
struct ReadingListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your readings, newest first, with their ids.")

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Only readings carrying this field (weight, calories, …).", valueName: "field"))
    var field: String?

    @OptionGroup var period: PeriodOptions

    @Flag(help: "Print [{\"id\", \"time\", \"device\", \"source\" (where it came from, when known), \"values\": {field: figure}, \"units\": {field: unit}}…] in your units, newest first.")
    var json = false

    @Flag(help: ArgumentHelp("List the readings kept aside instead: the same measurement as a counted one that came by a way "
                             + "counted first (`hmon sources prefer`); --json adds \"came_by\" and \"counted_instead\"."))
    var aside = false

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let (from, to) = try period.range(now: now, calendar: calendar)
        let opened = try await StoreOpener(store).open(.readOnly)
        var asideOf: [String: AsideReading] = [:]
        let readings: [Message]
        if aside {
            let kept = try await opened.service.asideReadings(from: from, to: to)
                .filter { kept in field.map { kept.message.data[$0] != nil } ?? true }
                .reversed().prefix(period.limit)
            asideOf = Dictionary(kept.map { ($0.message.mid, $0) }, uniquingKeysWith: { first, _ in first })
            readings = kept.map(\.message)
            if readings.isEmpty, !json {
                printEscaped("no readings kept aside\(period.isBounded ? " in that period" : ""): each measurement came by one way")
                return
            }
        } else {
            readings = try await opened.service.readings(ReadingsQuery(from: from, to: to, field: field, order: .desc, limit: period.limit))
        }
        if readings.isEmpty, !json {
            printEscaped("no readings\(field.map { " carrying \($0)" } ?? "")\(period.isBounded ? " in that period" : ""): add one with `hmon add weight 72.4`")
            return
        }
        let overview = try await opened.service.devicesOverview()
        let profile = try await opened.service.profile()
        let devices = Dictionary(overview.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        if json {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = calendar.timeZone
            let units = QuantityText(profile)
            print(try ListingJSON.text(readings.map {
                var object = ListingJSON.reading($0, device: devices[$0.sdid]?.name ?? $0.sdid, time: formatter.string(from: $0.date), units: units)
                if let kept = asideOf[$0.mid] {
                    object["came_by"] = kept.path.rawValue
                    object["counted_instead"] = kept.countedMid
                }
                return object
            }))
            return
        }
        let rows = readings.map { reading in
            [reading.mid, LocalTime.format(reading.date, calendar: calendar), devices[reading.sdid]?.name ?? reading.sdid,
             ReadingText.values(reading.data, manifest: overview.manifests[reading.sdtid], massUnit: profile.massUnit,
                               energyUnit: profile.energyUnit)]
        }
        if aside {
            printEscaped(Formatting.table(["ID", "TIME", "CAME BY", "VALUES", "COUNTED INSTEAD"], zip(readings, rows).map { reading, row in
                [row[0], row[1], asideOf[reading.mid]?.path.label ?? "", row[3], asideOf[reading.mid]?.countedMid ?? ""]
            }))
            return
        }
        printEscaped(Formatting.table(["ID", "TIME", "DEVICE", "VALUES"], rows))
    }
}
