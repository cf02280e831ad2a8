import Foundation

/// One short insight: a record, a streak, the week's trend, a weekday effect, or whether the energy
/// balance and the weight trend agree.
public struct Finding: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case record, streak, trendWeek = "trend_week", weekday, balance
    }

    /// Exist's priorities: 1 today, 2 a day (yesterday), 3 the week, 4 the month.
    public enum Period: Int, Sendable, Comparable {
        case today = 1, day, week, month

        public var name: String {
            switch self {
            case .today: "today"
            case .day: "day"
            case .week: "week"
            case .month: "month"
            }
        }

        public static func < (a: Period, b: Period) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    public var period: Period
    public var attribute: InsightAttribute
    /// The day it is about.
    public var date: Day
    public var text: String
    /// How much it stands out within its period (bigger first); orders findings of the same period.
    public var weight: Double

    /// Exist's type name: `weight_record`, `energy_weekday`.
    public var typeName: String { "\(attribute.name)_\(kind.rawValue)" }
}
