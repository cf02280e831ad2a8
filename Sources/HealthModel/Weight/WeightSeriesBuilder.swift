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
        var totals: [Day: DailyWeightTotal] = [:]
        for reading in readings {
            let day = Day(reading.date, in: calendar)
            totals[day, default: DailyWeightTotal(kg: 0, readings: 0)].add(reading.kg)
        }
        return series(dailyTotals: totals, days: days)
    }

    /// The same from per-day sums (what a store can compute without handing over every reading).
    public static func series(dailyTotals totals: [Day: DailyWeightTotal], days: ClosedRange<Day>) -> WeightSeries {
        var last: (day: Day, kg: Double)?
        if let before = totals.keys.filter({ $0 < days.lowerBound }).max(), let total = totals[before], total.readings > 0 {
            last = (before, total.average)
        }
        var points: [DailyWeight] = []
        var day = days.lowerBound
        while day <= days.upperBound {
            if let total = totals[day], total.readings > 0 {
                points.append(DailyWeight(day: day, kg: total.average, isCarried: false, readings: total.readings))
                last = (day, total.average)
            } else if let known = last, known.day.days(to: day) <= carryDays {
                points.append(DailyWeight(day: day, kg: known.kg, isCarried: true, readings: 0))
            }
            day = day.adding(days: 1)
        }
        return WeightSeries(days: days, points: points)
    }
}

/// The sum and count of one day's weights.
public struct DailyWeightTotal: Sendable, Equatable {
    public var kg: Double
    public var readings: Int

    public init(kg: Double, readings: Int) {
        self.kg = kg
        self.readings = readings
    }

    public var average: Double { kg / Double(readings) }

    mutating func add(_ value: Double) {
        kg += value
        readings += 1
    }
}

extension DailyWeight {
    /// The weight in the unit a person reads (1 lb = 0.45359237 kg).
    public func value(in unit: MassUnit) -> Double { unit.fromKg(kg) }
}
