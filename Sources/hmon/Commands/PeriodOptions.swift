import ArgumentParser
import Foundation

/// `--since DATE --until DATE --limit N`: the period and count of a newest-first listing, shared by
/// `hmon reading list` and `hmon hrv list` so both read dates and refuse a bad limit the same way.
struct PeriodOptions: ParsableArguments {
    @Option(help: ArgumentHelp("From this day or time on (\"2026-11-01\", \"2026-11-01 07:00\").", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Up to this day (included) or time.", valueName: "date"))
    var until: String?

    @Option(help: "At most this many.")
    var limit: Int = 20

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit \(limit) is not a positive number") }
    }

    /// Whether a period was given (a listing that finds nothing says "in that period").
    var isBounded: Bool { since != nil || until != nil }

    /// The period in ms since the epoch, `from <= ts < to`: a day alone as `--since` is its start, as
    /// `--until` its end (the whole day included).
    func range(now: Date = Date(), calendar: Calendar = .current) throws -> (from: Int64, to: Int64) {
        let from = try since.map { try LocalTime.parseBound($0, option: "--since", endOfDay: false, now: now, calendar: calendar) }
        let to = try until.map { try LocalTime.parseBound($0, option: "--until", endOfDay: true, now: now, calendar: calendar) }
        return (from?.millisecondsSince1970 ?? 0, to?.millisecondsSince1970 ?? .max)
    }
}
