import Foundation

/// A calendar day with no time zone attached: "2026-11-20". The energy summary and the weight series
/// are kept per local day; turning a `Day` into instants always takes the caller's `Calendar`.
public struct Day: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; nil for anything else or an impossible date.
    public init?(iso text: String) {
        self.init(text, padded: true)
    }

    /// A date as a person types it: `1985-3-14` as well as `1985-03-14` (year in four digits, month and
    /// day in one or two). For what people type; formats with a contract (Exist's dates) keep `iso`.
    public init?(typed text: String) {
        self.init(text.trimmingCharacters(in: .whitespaces), padded: false)
    }

    private init?(_ text: String, padded: Bool) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let widths = padded ? 2...2 : 1...2
        guard parts.count == 3, parts[0].count == 4, widths.contains(parts[1].count), widths.contains(parts[2].count),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let cal = Self.utc
        guard let date = cal.date(from: DateComponents(year: y, month: m, day: d)),
              cal.component(.day, from: date) == d, cal.component(.month, from: date) == m else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The local day that contains `date` in `calendar`'s time zone.
    public init(_ date: Date, in calendar: Calendar) {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!)
    }

    /// Midnight at the start of this day in `calendar`'s time zone.
    public func start(in calendar: Calendar) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The day `n` days later (earlier for negative `n`).
    public func adding(days n: Int) -> Day {
        let utc = Self.utc
        let date = utc.date(byAdding: .day, value: n, to: start(in: utc))!
        return Day(date, in: utc)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: Day) -> Int {
        let utc = Self.utc
        return utc.dateComponents([.day], from: start(in: utc), to: other.start(in: utc)).day!
    }

    /// Day arithmetic happens in UTC, where every day is 24 hours long; built once, as building a
    /// calendar and looking its time zone up costs more than the arithmetic.
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    public static func < (a: Day, b: Day) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = Day(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DD, got \(text)"))
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
