import Foundation

/// The pieces of a date that the screens print, in the English, locale-independent form hmon always
/// uses ("Fri", "Nov", "07:30") — what `DateFormatter` gives with the `en_US_POSIX` locale.
///
/// Why not `DateFormatter`: building one loads ICU's locale data, which cost the dashboard about
/// 10 MB of memory and a good part of its launch, and every refresh built several. The calendar's
/// own components are enough for fixed English patterns.
struct DateText {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int
    /// 1 = Sunday … 7 = Saturday, as the Gregorian calendar counts.
    let weekday: Int

    static func parts(of date: Date, in calendar: Calendar) -> DateText {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        return DateText(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1, hour: c.hour ?? 0,
                        minute: c.minute ?? 0, second: c.second ?? 0, weekday: c.weekday ?? 1)
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// "Nov".
    var monthName: String { Self.monthNames[(month - 1 + 12) % 12] }
    /// "Fri".
    var weekdayName: String { Self.weekdayNames[(weekday - 1 + 7) % 7] }
    /// "2026" (at least four digits).
    var year4: String { Self.padded(year, to: 4) }
    /// "05": the day, two digits.
    var dd: String { Self.padded(day, to: 2) }
    var hh: String { Self.padded(hour, to: 2) }
    var mm: String { Self.padded(minute, to: 2) }
    var ss: String { Self.padded(second, to: 2) }

    private static func padded(_ value: Int, to width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
