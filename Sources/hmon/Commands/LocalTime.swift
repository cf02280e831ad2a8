import Foundation
import HealthCore
import HealthFormats
import HealthModel
import HMonCommandLine

/// The times a person types at the command line, in their local time zone.
enum LocalTime {
    /// A time as `TypedTime` reads it ("2026-11-20 07:30", "yesterday 21:30", "07:30" today, a day alone at noon).
    static func parse(_ text: String, now: Date, calendar: Calendar, option: String = "--at") throws -> Date {
        let today = Day(now, in: calendar)
        guard let date = TypedTime.date(text, day: today, today: today, calendar: calendar) else { throw invalid(text, option: option) }
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

    private static func invalid(_ text: String, option: String) -> CommandError {
        CommandError("\(option) \"\(text)\" is not a time: pass \(TypedTime.forms)")
    }
}
