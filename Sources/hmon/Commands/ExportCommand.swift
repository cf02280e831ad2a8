import ArgumentParser
import Foundation
import HealthCore
import HealthFormats
import HealthModel
import HMonCommandLine

/// `hmon export [--format csv|json] [--since DATE] [--until DATE] [--field F]… [--output FILE]`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write your readings as CSV or JSON, one row per reading field.",
        discussion: """
        Columns (CSV) or keys (JSON): time (ISO 8601 with the local offset and milliseconds), device, \
        device_type, field, value, unit, reading_id; oldest first. JSON is one array of objects. \
        `hmon import FILE` reads both back, into this store or an empty one, with nothing lost; \
        importing the same export twice adds nothing.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json }

    @OptionGroup var store: StoreOptions

    @Option(help: "csv or json.")
    var format: Format = .csv

    @Option(help: ArgumentHelp("From this day or time on (\"2026-11-01\", \"2026-11-01 07:00\").", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Up to this day (included) or time.", valueName: "date"))
    var until: String?

    @Option(help: ArgumentHelp("Only this field (weight, calories, …); repeat for several.", valueName: "field"))
    var field: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (whole or not at all) instead of standard output.", valueName: "file"))
    var output: String?

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let from = try since.map { try LocalTime.parseBound($0, option: "--since", endOfDay: false, now: now, calendar: calendar) }
        let to = try until.map { try LocalTime.parseBound($0, option: "--until", endOfDay: true, now: now, calendar: calendar) }
        if let from, let to, from >= to { throw CommandError("--since is not before --until: swap them") }
        let opened = try await StoreOpener(store).open(.readOnly)
        // One field asks the store for just those readings; several are filtered here.
        let readings = try await opened.service.readings(ReadingsQuery(
            from: from?.millisecondsSince1970 ?? 0, to: to?.millisecondsSince1970 ?? .max,
            field: field.count == 1 ? field[0] : nil, order: .asc))
        let overview = try await opened.service.devicesOverview()
        let rows = ExportRow.rows(of: readings, overview: overview, fields: Set(field))
        let text = ExportFormat(rawValue: format.rawValue)!.text(rows)
        if let output {
            do {
                try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: output))
            } catch {
                throw CommandError("\(error.description) (is the folder there and writable?); nothing was written")
            }
            let count = Set(rows.map(\.readingID)).count
            let line = "exported \(Formatting.grouped(count)) \(count == 1 ? "reading" : "readings") (\(Formatting.grouped(rows.count)) rows) to \(output)"
            FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
        } else if isatty(STDOUT_FILENO) == 1 {
            // A person reading it: names and texts from the store are shown, never obeyed.
            FileHandle.standardOutput.write(Data(TerminalText.escapedLines(text).utf8))
        } else {
            // Data for a file or a pipe, byte for byte, so the import reads back exactly what was stored.
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
