import Foundation
import HealthModel

/// The instants `hmon export` writes and reads back: ISO 8601 with milliseconds and the local offset
/// ("2026-11-20T07:30:00.000+01:00"), so a person reads local time and a program gets the exact ms.
public enum ExportTime {
    /// `ms` in `timeZone`, with its offset.
    public static func format(_ ms: Int64, timeZone: TimeZone = .current) -> String {
        let date = Date(millisecondsSince1970: ms)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let millis = Int(((ms % 1000) + 1000) % 1000)
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d%@%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!,
                      c.second!, millis, sign, hours, minutes)
    }

    /// An ISO 8601 instant with an offset or `Z`, with or without fractional seconds; nil for anything else.
    public static func parse(_ text: String) -> Int64? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date.millisecondsSince1970 }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: text)?.millisecondsSince1970
    }

    public static func date(_ text: String) -> Date? {
        parse(text).map { (ms: Int64) in Date(millisecondsSince1970: ms) }
    }
}
