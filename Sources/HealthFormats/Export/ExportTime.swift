import Foundation
import HealthCore
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

    /// An ISO 8601 instant with an offset or `Z`, with or without fractional seconds; nil for anything else,
    /// and for a time that is not real (see `fastParse`).
    ///
    /// Read here alone, never by Foundation's parser: that one took February 30 as March 2 and an offset of
    /// +99:00, where the Apple Health importer refuses both (`ByteParsing.appleDate`). It was also most of
    /// what `hmon import` of hmon's own export cost (two `ISO8601DateFormatter`s a row, about 170 µs).
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { fastParse($0) }
    }

    /// `YYYY-MM-DDTHH:MM:SS`, then `.` and 1 to 9 digits or none, then `Z` or `±HH:MM` (or `±HHMM`): the
    /// instant in ms (fractions beyond ms cut), or nil when the text is not of that form or names no real
    /// time: month 13, 24:00, February 30, an offset beyond ±14:00 (the rules every importer keeps).
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
            guard let hours = digits(2) else { return nil }
            _ = expect(0x3A)
            guard let minutes = digits(2), minutes < 60, hours * 60 + minutes <= ByteParsing.maxOffsetMinutes else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        // The calendar check every importer shares (`ByteParsing.daysSinceEpoch`): no February 30.
        guard at == bytes.count, let days = ByteParsing.daysSinceEpoch(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let seconds = (days * 86_400 + hour * 3600 + minute * 60 + second) - offsetMinutes * 60
        return Int64(seconds) * 1000 + Int64(millis)
    }

    public static func date(_ text: String) -> Date? {
        parse(text).map { (ms: Int64) in Date(millisecondsSince1970: ms) }
    }
}
