import Foundation
import HealthCore
import HealthModel

/// The weight chart, ready to draw: positions as numbers (x in days from the first day shown, y in the
/// displayed unit) and every label already written. The view only places them.
public struct WeightChart: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double
    }

    public struct Tick: Sendable, Equatable {
        public var value: Double
        public var label: String
    }

    /// Days from the first to the last day shown: x runs from 0 to this.
    public var lastX: Double
    public var low: Double
    public var high: Double
    /// Each weigh-in (a day's average).
    public var weighIns: [Point]
    /// The smoothed trend, one point a day.
    public var trend: [Point]
    public var goal: Double?
    public var yTicks: [Tick]
    public var xTicks: [Tick]
    /// "90 days, Aug 23 – Nov 20".
    public var period: String
}

/// Builds the chart for a span of days ending today from the trend.
enum WeightChartBuilder {
    static func chart(_ trend: [TrendDay], span: ChartSpan, today: Day, goalKg: Double?, unit: MassUnit,
                      calendar: Calendar) -> WeightChart? {
        guard let firstTrendDay = trend.first?.day else { return nil }
        let first = span.days.map { today.adding(days: -($0 - 1)) } ?? min(firstTrendDay, today)
        let origin = first.ordinal
        let shown = trend.filter { $0.day >= first && $0.day <= today }
        guard !shown.isEmpty else { return nil }
        let trendPoints = shown.map { WeightChart.Point(x: Double($0.day.ordinal - origin), y: unit.fromKg($0.trendKg)) }
        let weighIns = shown.compactMap { day in
            day.weightKg.map { WeightChart.Point(x: Double(day.day.ordinal - origin), y: unit.fromKg($0)) }
        }
        let goal = goalKg.map(unit.fromKg)
        let values = trendPoints.map(\.y) + weighIns.map(\.y) + (goal.map { [$0] } ?? [])
        let (low, high, yTicks) = roundTicks(low: values.min()!, high: values.max()!)
        let formats = Formats(calendar: calendar)
        let lastX = Double(today.ordinal - origin)
        // Over more than 100 days the ends carry their years: "Nov 21, 2025 – Nov 20, 2026".
        func end(_ day: Day) -> String { lastX > 100 ? "\(formats.shortDay(day)), \(day.year)" : formats.shortDay(day) }
        return WeightChart(lastX: lastX, low: low, high: high, weighIns: weighIns, trend: trendPoints, goal: goal,
                           yTicks: yTicks, xTicks: dayTicks(from: first, to: today, formats: formats),
                           period: "\(span.label), \(end(first)) – \(end(today))")
    }

    /// A y-axis of round numbers: a step of 1, 2 or 5 × 10ⁿ giving two to four intervals, the range
    /// widened to whole steps; at least one unit tall so a flat week is not drawn as a cliff.
    static func roundTicks(low: Double, high: Double) -> (Double, Double, [WeightChart.Tick]) {
        var low = low, high = high
        if high - low < 1 { let middle = (low + high) / 2; low = middle - 0.5; high = middle + 0.5 }
        let rough = (high - low) / 3
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let bottom = floor(low / step) * step, top = ceil(high / step) * step
        let decimals = step < 1 ? 1 : 0
        var ticks: [WeightChart.Tick] = []
        var value = bottom
        while value <= top + step / 2 {
            ticks.append(.init(value: value, label: CNumberText.fixed(value, decimals: decimals)))
            value += step
        }
        return (bottom, top, ticks)
    }

    /// Month starts ("Sep") over more than 60 days; weekly days ("Nov 3") over fewer.
    static func dayTicks(from first: Day, to last: Day, formats: Formats) -> [WeightChart.Tick] {
        let count = last.ordinal - first.ordinal
        var ticks: [WeightChart.Tick] = []
        if count > 60 {
            var day = Day(year: first.year, month: first.month, day: 1)
            if day < first { day = Day(year: first.month == 12 ? first.year + 1 : first.year, month: first.month % 12 + 1, day: 1) }
            // Over years, every third month keeps the labels apart.
            let every = count > 500 ? 3 : 1
            while day <= last {
                if (day.month - 1) % every == 0 {
                    let label = day.month == 1 ? "\(day.year)" : String(formats.shortDay(day).prefix(3))
                    ticks.append(.init(value: Double(day.ordinal - first.ordinal), label: label))
                }
                day = Day(year: day.month == 12 ? day.year + 1 : day.year, month: day.month % 12 + 1, day: 1)
            }
        } else {
            var offset = 0
            while offset <= count {
                ticks.append(.init(value: Double(offset), label: formats.shortDay(Day(ordinal: first.ordinal + offset))))
                offset += 7
            }
        }
        return ticks
    }
}
