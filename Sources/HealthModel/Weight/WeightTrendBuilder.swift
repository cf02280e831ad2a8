import Foundation

/// The smoothed weight trend of The Hacker's Diet (John Walker, 1991, "Signal and Noise"):
/// each day the trend moves 10 % of the way from itself toward that day's weight,
/// `trend[d] = trend[d-1] + 0.1 × (weight[d] − trend[d-1])`, seeded with the first weight.
///
/// Days without a weigh-in follow TrendWeight's rule (Erv Walter's trendweight.com): the weight of
/// such a day is interpolated linearly between the weigh-ins either side, and the trend takes its
/// usual step toward it. Chosen over Libra's time-aware smoothing (a step of `1 − 0.9^gap` toward the
/// next weigh-in) because it keeps one rule for every day, so the trend of a week weighed twice and
/// of a week weighed daily can be compared and checked by hand, and because a day in a gap then has
/// a trend value of its own for the chart, the rate fit and `hmon trend --json`. The series runs from
/// the first weigh-in to the last: past the last one there is nothing to interpolate toward.
public enum WeightTrendBuilder {
    /// The Hacker's Diet smoothing: 10 % per day.
    public static let smoothing = 0.1

    /// The trend from per-day weigh-ins (the daily average of `WeightSeriesBuilder`), oldest first.
    public static func days(dailyTotals: [Day: DailyWeightTotal]) -> [TrendDay] {
        let weighIns = dailyTotals.compactMap { day, total in total.readings > 0 ? (day, total.average) : nil }
        return days(weighIns: weighIns)
    }

    /// The trend from a weight series' weigh-in days (its carried days are not weigh-ins: the trend
    /// interpolates across them by its own rule).
    public static func days(series: WeightSeries) -> [TrendDay] {
        days(weighIns: series.points.filter { !$0.isCarried }.map { ($0.day, $0.kg) })
    }

    /// The trend from one weight per weigh-in day, in any order (one entry per day).
    public static func days(weighIns: [(day: Day, kg: Double)]) -> [TrendDay] {
        smoothed(weighIns.map { ($0.day, $0.kg) }).map { TrendDay(day: $0.day, weightKg: $0.value, trendKg: $0.trend) }
    }

    /// The same smoothing of any one value a day (body fat, fat and lean mass follow it too, as on
    /// TrendWeight), in any order: one entry per day from the first to the last, `value` nil on a day
    /// without one.
    public static func smoothed(_ values: [(day: Day, value: Double)]) -> [(day: Day, value: Double?, trend: Double)] {
        let sorted = values.map { (ordinal: $0.day.ordinal, value: $0.value) }.sorted { $0.ordinal < $1.ordinal }
        guard let first = sorted.first, let last = sorted.last else { return [] }
        var result: [(day: Day, value: Double?, trend: Double)] = []
        result.reserveCapacity(last.ordinal - first.ordinal + 1)
        var trend = first.value
        var previous = first
        for next in sorted {
            // The days after `previous` up to the one before `next` had no value.
            let gap = next.ordinal - previous.ordinal
            if gap > 1 {
                for step in 1..<gap {
                    let value = previous.value + (next.value - previous.value) * Double(step) / Double(gap)
                    trend += smoothing * (value - trend)
                    result.append((Day(ordinal: previous.ordinal + step), nil, trend))
                }
            }
            if !result.isEmpty { trend += smoothing * (next.value - trend) }
            result.append((Day(ordinal: next.ordinal), next.value, trend))
            previous = next
        }
        return result
    }
}
