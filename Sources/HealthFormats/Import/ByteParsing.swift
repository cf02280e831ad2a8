#if canImport(Glibc)
import Glibc
import HealthModel
#elseif canImport(Darwin)
import Darwin
#endif

/// Number and date parsing straight from bytes, without making a `String` or a `DateFormatter` per
/// value: an Apple Health export holds millions of them, and these run inside the import's hot loop.
enum ByteParsing {
    private static let exactPowersOfTen: [Double] = (0...22).map { pow(10.0, Double($0)) }

    /// Parses a decimal number (`72.5`, `-3`, `1e3`); nil for anything else (including `nan`, `inf`, hex).
    ///
    /// The common `[-]digits[.digits]` with at most 19 digits is exact by Clinger's fast path (an integer
    /// mantissa below 2^53 divided by an exact power of ten rounds once); the rest goes to `strtod`.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = bytes.count
        guard n > 0, n < 64 else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDot = false
        while i < n {
            let c = bytes[i]
            if c >= 0x30 && c <= 0x39 {
                // Beyond 19 significant digits the mantissa would overflow: let strtod decide.
                guard digits < 19 else { return slowDouble(bytes) }
                mantissa = mantissa &* 10 &+ UInt64(c &- 0x30)
                if sawDot { fractionDigits += 1 }
                if mantissa != 0 { digits += 1 }
            } else if c == UInt8(ascii: ".") && !sawDot {
                sawDot = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                return slowDouble(bytes)
            } else {
                return nil
            }
            i += 1
        }
        // At least one digit somewhere.
        guard bytes.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard mantissa < (1 << 53), fractionDigits <= 22 else { return slowDouble(bytes) }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B
                                 || $0 == 0x65 || $0 == 0x45 }) else { return nil }
        var text = Array(bytes)
        text.append(0)
        return text.withUnsafeBufferPointer { p -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let base = UnsafeRawPointer(p.baseAddress!).assumingMemoryBound(to: CChar.self)
            let value = strtod(base, &end)
            guard let end, UnsafeRawPointer(end) == UnsafeRawPointer(base + bytes.count), value.isFinite else { return nil }
            return value
        }
    }

    /// The widest offset from UTC a real local time has: ±14:00 (the Line Islands). Every importer holds
    /// its offsets to it (`appleDate`, `ExportTime.fastParse`): +99:00 is a typo, not a place.
    static let maxOffsetMinutes = 14 * 60

    /// Parses Apple Health's `2016-04-18 08:25:32 -0700` into ms since the epoch.
    static func appleDate(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count == 25, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20,
              b[20] == 0x2B || b[20] == 0x2D,
              let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2),
              let offsetHours = digits(b, 21, 2), let offsetMinutes = digits(b, 23, 2),
              let days = daysSinceEpoch(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 61, offsetMinutes < 60, offsetHours * 60 + offsetMinutes <= maxOffsetMinutes
        else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (b[20] == 0x2D ? -1 : 1)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Int64(seconds) * 1000
    }

    /// Parses `YYYY-MM-DD`.
    static func isoDay(_ b: UnsafeBufferPointer<UInt8>) -> Day? {
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D,
              let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              daysSinceEpoch(year: year, month: month, day: day) != nil else { return nil }
        return Day(year: year, month: month, day: day)
    }

    static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for i in start..<(start + count) {
            let c = b[i]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`); nil for
    /// an impossible date such as February 30.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Array where Element == UInt8 {
    /// Compares with a byte range without making a `String`.
    @inline(__always)
    func equals(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBufferPointer { memcmp($0.baseAddress!, other.baseAddress!, count) == 0 }
    }
}
