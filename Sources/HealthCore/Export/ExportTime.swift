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
    ///
    /// The form `format` writes is read by `fastParse`; anything else goes to Foundation's parser. Making
    /// two `ISO8601DateFormatter`s per row was most of what `hmon import` of hmon's own export cost (about
    /// 170 µs a row, release build), and an export is one row per field of every reading.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        if let ms = text.withUTF8({ fastParse($0) }) { return ms }
        return foundationParse(text)
    }

    /// `YYYY-MM-DDTHH:MM:SS`, then `.` and 1 to 9 digits or none, then `Z` or `±HH:MM`: the instant in ms
    /// (fractions beyond ms cut, as Foundation's parser does), or nil when the text is not of that form or
    /// names no real time (month 13, 24:00, February 30, an offset beyond ±18 h).
    static func fastParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var at = 0
        func digits(_ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[at]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                at += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              expect(0x54), let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2)
        else { return nil }
        var millis = 0
        if expect(0x2E) {
            var places = 0
            while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 {
                if places < 3 { millis = millis * 10 + Int(bytes[at] - 0x30) }
                places += 1
                at += 1
            }
            guard (1...9).contains(places) else { return nil }
            if places < 3 { for _ in places..<3 { millis *= 10 } }
        }
        var offsetMinutes = 0
        if !expect(0x5A) {
            guard at < bytes.count, bytes[at] == 0x2B || bytes[at] == 0x2D else { return nil }
            let sign = bytes[at] == 0x2D ? -1 : 1
            at += 1
            guard let hours = digits(2), expect(0x3A), let minutes = digits(2), hours <= 18, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard at == bytes.count, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let seconds = (daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
            - offsetMinutes * 60
        return Int64(seconds) * 1000 + Int64(millis)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`, http://howardhinnant.github.io/date_algorithms.html).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func foundationParse(_ text: String) -> Int64? {
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
