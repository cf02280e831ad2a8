import Foundation
import HealthCore
import HealthModel

/// Where the view models read the time and how they turn instants into local days and text.
/// Tests pass a fixed clock so "today", "2 h ago" and every formatted date are reproducible.
public struct Clock: Sendable {
    public var now: @Sendable () -> Date
    public var calendar: Calendar

    public init(calendar: Calendar = .current, now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        self.calendar = calendar
    }

    /// The system clock in the local time zone.
    public static var system: Clock {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return Clock(calendar: calendar)
    }

    /// A clock stopped at `date`, reading days in `timeZone`.
    public static func fixed(_ date: Date, timeZone: TimeZone = .current) -> Clock {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return Clock(calendar: calendar, now: { date })
    }

    public var today: Day { Day(now(), in: calendar) }
}
