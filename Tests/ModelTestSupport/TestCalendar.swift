import Foundation

/// A Gregorian calendar in a fixed time zone, so tests do not depend on the machine's.
public func calendar(_ zone: String = "Europe/Berlin") -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar
}

/// An instant written as local time in `calendar`.
public func date(_ text: String, in calendar: Calendar = calendar()) -> Date {
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.date(from: text)!
}
