import Foundation

/// The dates Fitbit's JSON files write: `03/14/26` (month, day, two-digit year of this century), with the
/// time apart (`06:40:00`) or after a space (`03/14/26 06:40:00`).
enum FitbitDates {
    /// ms since the epoch of a local date and time in `zone`; nil when it is no such date.
    static func timestamp(_ text: String, time: String? = nil, in zone: TimeZone) -> Int64? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let date = parts.first else { return nil }
        let numbers = date.split(separator: "/", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let iso = "20\(numbers[2])-\(numbers[0])-\(numbers[1])"
        return CSVDates.timestamp(date: iso, time: time ?? parts.dropFirst().first.map(String.init), in: zone)
    }
}
