import Foundation

/// Turns weight readings into a daily series (Exist's rule): the readings of a day average to one
/// value; a day without one carries the last known value forward for up to `carryDays` days, marked
/// as carried; after that the days are absent until the next reading. Pure: the calendar decides
/// which local day a reading belongs to.
public enum WeightSeriesBuilder {
    public static let carryDays = 30

    /// - Parameter readings: in any order; readings before `days` feed the carry into its first days,
    ///   so pass those of the `carryDays` days before it too.
    public static func series(_ readings: [WeightReading], days: ClosedRange<Day>, calendar: Calendar) -> WeightSeries {
        var sums: [Day: (total: Double, count: Int)] = [:]
        for reading in readings {
            let day = Day(reading.date, in: calendar)
            guard day <= days.upperBound else { continue }
            sums[day, default: (0, 0)].total += reading.kg
            sums[day, default: (0, 0)].count += 1
        }
        var last: (day: Day, kg: Double)?
        if let before = sums.keys.filter({ $0 < days.lowerBound }).max(), let sum = sums[before] {
            last = (before, sum.total / Double(sum.count))
        }
        var points: [DailyWeight] = []
        var day = days.lowerBound
        while day <= days.upperBound {
            if let sum = sums[day] {
                let kg = sum.total / Double(sum.count)
                points.append(DailyWeight(day: day, kg: kg, isCarried: false, readings: sum.count))
                last = (day, kg)
            } else if let known = last, known.day.days(to: day) <= carryDays {
                points.append(DailyWeight(day: day, kg: known.kg, isCarried: true, readings: 0))
            }
            day = day.adding(days: 1)
        }
        return WeightSeries(days: days, points: points)
    }
}

extension DailyWeight {
    /// The weight in the unit a person reads (1 lb = 0.45359237 kg).
    public func value(in unit: MassUnit) -> Double { unit.fromKg(kg) }
}
