import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The screens' dates and numbers are written without `DateFormatter` (see `DateText`); these hold
/// them to what Foundation's `en_US_POSIX` formatter and `String(format:)` print for the same patterns.
struct FormatsTests {
    private func posix(_ pattern: String, _ calendar: Calendar) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = pattern
        return formatter
    }

    @Test(arguments: ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin"])
    func datesReadAsThePosixFormatterWritesThem(_ zone: String) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let formats = Formats(calendar: calendar)
        let checks: [(String, (Date) -> String)] = [
            ("MMM dd, yyyy HH:mm", formats.dateTime),
            ("EEE MMM dd, yyyy  HH:mm", formats.tableDateTime),
            ("HH:mm:ss", formats.time),
        ]
        let dayChecks: [(String, (Day) -> String)] = [
            ("EEE, MMM d, yyyy", formats.longDay),
            ("EEE MMM d", formats.weekDay),
            ("MMM d", formats.shortDay),
        ]
        // Every month and weekday, both sides of daylight-saving changes, leap days, years before 1000.
        var instants = (0..<400).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 86_400 * 1.37 + Double($0 * 7_919 % 86_400)) }
        instants += [Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: -30_000_000_000), Date(timeIntervalSince1970: 0)]
        for date in instants {
            for (pattern, format) in checks {
                #expect(format(date) == posix(pattern, calendar).string(from: date), "\(pattern) at \(date) in \(zone)")
            }
            let day = Day(date, in: calendar)
            for (pattern, format) in dayChecks {
                #expect(format(day) == posix(pattern, calendar).string(from: day.start(in: calendar)), "\(pattern) for \(day) in \(zone)")
            }
        }
    }
}
