import Foundation

/// A time as a person types it, in their time zone: "21:30" (on the day meant), "yesterday 21:30",
/// "today 7:10", "2026-11-20 07:10", "2026-11-20T07:10", "2026-11-20" (noon) or "yesterday" (noon).
/// The command line's `--at` and the dashboard's prompts read times through it, so both take the same words.
public enum TypedTime {
    /// Why a text is no time, said with the forms it takes.
    public static let forms = "\"21:30\", \"yesterday 21:30\", \"2026-11-20 07:10\" or \"2026-11-20\""

    /// The instant `text` names, or nil when it names none. A day alone is its noon (a meal or a weigh-in
    /// logged for a day, not a moment); a time alone is on `day` (today, or the day a screen shows).
    public static func date(_ text: String, day: Day, today: Day, calendar: Calendar) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        var onDay = day
        var clock = "12:00"
        switch parts.count {
        case 1 where parts[0].contains(":"): clock = parts[0]
        case 1:
            guard let named = Self.day(parts[0], today: today) else { return nil }
            onDay = named
        case 2:
            guard let named = Self.day(parts[0], today: today) else { return nil }
            onDay = named
            clock = parts[1]
        default: return nil
        }
        let hm = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, (1...2).contains(hm[0].count), hm[1].count == 2,
              hm.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(hm[0]), let minute = Int(hm[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return calendar.date(byAdding: DateComponents(hour: hour, minute: minute), to: onDay.start(in: calendar))
    }

    /// "today", "yesterday", or a date as typed ("2026-11-20", "2026-3-4"); nil for anything else.
    public static func day(_ word: String, today: Day) -> Day? {
        switch word.lowercased() {
        case "today": today
        case "yesterday": today.adding(days: -1)
        default: Day(typed: word)
        }
    }
}
