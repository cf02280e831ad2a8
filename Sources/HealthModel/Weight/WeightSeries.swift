import Foundation

/// One day of the weight series: the average of that day's readings, or the last known value carried forward.
public struct DailyWeight: Sendable, Equatable {
    public var day: Day
    public var kg: Double
    /// True when no reading was taken that day and the value was carried from an earlier one.
    public var isCarried: Bool
    /// How many readings were averaged (0 when carried).
    public var readings: Int

    public init(day: Day, kg: Double, isCarried: Bool, readings: Int) {
        self.day = day
        self.kg = kg
        self.isCarried = isCarried
        self.readings = readings
    }
}

/// Daily weights over a range of days (Exist's rule: average per day, carry forward up to 30 days).
/// Days with no reading and nothing to carry (or a gap longer than the carry window) are absent.
public struct WeightSeries: Sendable, Equatable {
    public var days: ClosedRange<Day>
    public var points: [DailyWeight]

    public init(days: ClosedRange<Day>, points: [DailyWeight]) {
        self.days = days
        self.points = points
    }
}
