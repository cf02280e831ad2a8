import Foundation
import HealthCore
import HMonCommandLine

/// The times a person types at the command line, in their local time zone.
enum LocalTime {
    /// "2026-11-20 07:30", "2026-11-20T07:30", "2026-11-20" (noon) or "07:30" (today).
    static func parse(_ text: String, now: Date, calendar: Calendar) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        var day = Day(now, in: calendar)
        var clock = "12:00"
        switch parts.count {
        case 1 where parts[0].contains(":"): clock = parts[0]
        case 1: day = try parseDay(parts[0], original: text)
        case 2: day = try parseDay(parts[0], original: text); clock = parts[1]
        default: throw invalid(text)
        }
        let hm = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, hm[1].count == 2, let hour = Int(hm[0]), let minute = Int(hm[1]),
              (0...23).contains(hour), (0...59).contains(minute),
              let date = calendar.date(byAdding: DateComponents(hour: hour, minute: minute), to: day.start(in: calendar))
        else { throw invalid(text) }
        return date
    }

    /// "2026-11-20 07:30" in `calendar`'s time zone.
    static func format(_ date: Date, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }

    private static func parseDay(_ text: String, original: String) throws -> Day {
        guard let day = Day(iso: text) else { throw invalid(original) }
        return day
    }

    private static func invalid(_ text: String) -> CommandError {
        CommandError("--at \"\(text)\" is not a time: pass \"YYYY-MM-DD HH:MM\" (e.g. \"2026-11-20 07:30\") or \"HH:MM\" for today")
    }
}
