import Foundation

/// An attribute's typical day over a window: the median overall and per weekday. Exist calls these
/// "averages" and computes medians over 60 days; hmon does the same, because a median is not pulled
/// about by the one feast or the one sick day a mean would follow.
public struct AttributeAverages: Sendable, Equatable {
    public static let windowDays = 60
    public static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    public var attribute: InsightAttribute
    /// The window's last day.
    public var date: Day
    public var overall: Double
    /// Monday first; nil for a weekday with no value in the window.
    public var weekdays: [Double?]
    /// How many days had a value, overall and per weekday.
    public var count: Int
    public var weekdayCounts: [Int]

    /// The medians of the `windowDays` days ending `through` (days without a value are left out, not
    /// counted as zero); nil when the attribute has no value in the window.
    public static func compute(_ attribute: InsightAttribute, in daily: DailyAttributes, through: Day,
                               windowDays: Int = windowDays) -> AttributeAverages? {
        var all: [Double] = []
        var byWeekday = [[Double]](repeating: [], count: 7)
        // Day by ordinal: `Day.adding` goes through Calendar, a thousand times slower than the arithmetic.
        for ordinal in (through.ordinal - windowDays + 1)...through.ordinal {
            let day = Day(ordinal: ordinal)
            if let v = daily.value(attribute, on: day) {
                all.append(v)
                byWeekday[day.weekdayIndex].append(v)
            }
        }
        guard let overall = Median.of(all) else { return nil }
        return AttributeAverages(attribute: attribute, date: through, overall: overall, weekdays: byWeekday.map { Median.of($0) },
                                 count: all.count, weekdayCounts: byWeekday.map(\.count))
    }
}
