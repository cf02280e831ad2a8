import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// The times a person types at the command line, in their local time zone.
enum LocalTime {
    /// "2026-11-20 07:30", "2026-11-20T07:30", "2026-11-20" (noon) or "07:30" (today).
    static func parse(_ text: String, now: Date, calendar: Calendar, option: String = "--at") throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        var day = Day(now, in: calendar)
        var clock = "12:00"
        switch parts.count {
        case 1 where parts[0].contains(":"): clock = parts[0]
        case 1: day = try parseDay(parts[0], original: text, option: option)
        case 2: day = try parseDay(parts[0], original: text, option: option); clock = parts[1]
        default: throw invalid(text, option: option)
        }
        let hm = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, hm[1].count == 2, let hour = Int(hm[0]), let minute = Int(hm[1]),
              (0...23).contains(hour), (0...59).contains(minute),
              let date = calendar.date(byAdding: DateComponents(hour: hour, minute: minute), to: day.start(in: calendar))
        else { throw invalid(text, option: option) }
        return date
    }

    /// One end of a period (`--since`, `--until`): a day alone is its start (`--since`) or its end
    /// (`--until`, the whole day included); a time, or an ISO 8601 instant with its offset as `hmon
    /// export` writes it ("2026-11-20T07:30:00.000+01:00"), is that instant.
    static func parseBound(_ text: String, option: String, endOfDay: Bool, now: Date, calendar: Calendar) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let day = Day(iso: trimmed) { return (endOfDay ? day.adding(days: 1) : day).start(in: calendar) }
        if let instant = ExportTime.date(trimmed) { return instant }
        return try parse(trimmed, now: now, calendar: calendar, option: option)
    }

    /// "2026-11-20 07:30" in `calendar`'s time zone.
    static func format(_ date: Date, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }

    private static func parseDay(_ text: String, original: String, option: String) throws -> Day {
        guard let day = Day(iso: text) else { throw invalid(original, option: option) }
        return day
    }

    private static func invalid(_ text: String, option: String) -> CommandError {
        CommandError("\(option) \"\(text)\" is not a time: pass \"YYYY-MM-DD HH:MM\" (e.g. \"2026-11-20 07:30\"), \"YYYY-MM-DD\" or \"HH:MM\" for today")
    }
}
