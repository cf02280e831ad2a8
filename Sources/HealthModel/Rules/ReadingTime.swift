import Foundation

/// The one rule for a reading's time from outside, at every door (the API, the push decoders, the pulls):
/// a real calendar date, an offset within ±14:00, not before 2000, not more than a day ahead.
///
/// A phone's clock that was never set says 1970; a typed year says 0000 or 9999; a record from a calendar
/// that has no February 30 is a bug upstream. Each would sit on a screen years away from every other
/// reading, or in the future above today's: refused by name, never stored as a nearby day.
public enum ReadingTime {
    /// 2000-01-01T00:00:00Z, ms: nothing hmon reads was measured earlier by a device that reports to it.
    public static let earliest: Int64 = 946_684_800_000
    /// A day, ms: a reading may be ahead of the server's clock by this much (a phone a time zone ahead).
    public static let aheadAllowed: Int64 = 86_400_000
    /// The widest UTC offset any zone uses (Line Islands, +14:00), in minutes.
    public static let widestOffsetMinutes = 14 * 60

    /// Why a time (ms since 1970) is refused, as a short phrase ("before 2000"); nil when it is taken.
    public static func problem(_ ms: Int64, now: Int64) -> String? {
        if ms < earliest { return "before 2000" }
        let latest = now > Int64.max - aheadAllowed ? Int64.max : now + aheadAllowed
        if ms > latest { return "more than a day in the future" }
        return nil
    }

    /// An ISO 8601 instant as the apps write it (Java's `Instant.toString()`, openScale's `…SSS'Z'`, Oura's
    /// `+01:00`): `YYYY-MM-DDThh:mm:ss`, an optional fraction of up to nine digits, then `Z` or `±hh:mm` within
    /// ±14:00. Milliseconds since 1970; nil for anything else, an impossible date (February 30, hour 24)
    /// included.
    public static func milliseconds(iso text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2),
              let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var millis = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var place = 100
            let start = index
            while index < bytes.count, let digit = digit(bytes[index]) {
                millis += digit * place
                place /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        var offsetSeconds = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes.count == index + 6,
                  let hours = digits(bytes, index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"), let minutes = digits(bytes, index + 4, 2),
                  minutes < 60, hours * 60 + minutes <= widestOffsetMinutes {
            offsetSeconds = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = Int64(daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return seconds * 1000 + Int64(millis)
    }

    /// The days of a month in the proleptic Gregorian calendar.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
