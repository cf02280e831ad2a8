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
    /// What the axis must cover: the weigh-ins and the trend, and the goal when it is near them.
    public var low: Double
    public var high: Double
    /// Each weigh-in (a day's average).
    public var weighIns: [Point]
    /// The smoothed trend, one point a day.
    public var trend: [Point]
    public var goal: Double?
    public var xTicks: [Tick]
    /// "90 days, Aug 23 – Nov 20"; "20 days, Nov 1 – Nov 20" when the weigh-ins began inside the span.
    public var period: String

    /// A value on a chart's axis, or a goal beside it, as the screens write numbers.
    public static func axisLabel(_ value: Double, decimals: Int) -> String { CNumberText.fixed(value, decimals: decimals) }
}

/// Builds the chart for a span of days ending today from the trend.
enum WeightChartBuilder {
    static func chart(_ trend: [TrendDay], span: ChartSpan, today: Day, goalKg: Double?, unit: MassUnit,
                      calendar: Calendar) -> WeightChart? {
        guard let firstTrendDay = trend.first?.day else { return nil }
        // The time axis starts at the span's first day, or at the first weigh-in when that is later: a
        // month of weigh-ins fills the chart instead of sitting in the right third of "90 days".
        let spanStart = span.days.map { today.adding(days: -($0 - 1)) }
        let first = max(spanStart ?? firstTrendDay, min(firstTrendDay, today))
        let origin = first.ordinal
        let shown = trend.filter { $0.day >= first && $0.day <= today }
        guard !shown.isEmpty else { return nil }
        let trendPoints = shown.map { WeightChart.Point(x: Double($0.day.ordinal - origin), y: unit.fromKg($0.trendKg)) }
        let weighIns = shown.compactMap { day in
            day.weightKg.map { WeightChart.Point(x: Double(day.day.ordinal - origin), y: unit.fromKg($0)) }
        }
        let goal = goalKg.map(unit.fromKg)
        let values = trendPoints.map(\.y) + weighIns.map(\.y)
        var low = values.min()!, high = values.max()!
        // A goal near the weights widens the axis to take it in; a far one would squash them into a flat
        // line, so the view marks it at the edge with its value instead.
        if let goal, goal >= low - Self.goalReach(low, high), goal <= high + Self.goalReach(low, high) {
            low = min(low, goal)
            high = max(high, goal)
        }
        let formats = Formats(calendar: calendar)
        let lastX = Double(today.ordinal - origin)
        // Over more than 100 days the ends carry their years: "Nov 21, 2025 – Nov 20, 2026".
        func end(_ day: Day) -> String { lastX > 100 ? "\(formats.shortDay(day)), \(day.year)" : formats.shortDay(day) }
        // A weight is told to a tenth of a unit: a flatter stretch is drawn a unit tall, not as a cliff.
        if high - low < 1 { let middle = (low + high) / 2; low = middle - 0.5; high = middle + 0.5 }
        let shownDays = today.ordinal - first.ordinal + 1
        let label = spanStart.map { first > $0 } == true ? (shownDays == 1 ? "1 day" : "\(shownDays) days") : span.label
        return WeightChart(lastX: lastX, low: low, high: high, weighIns: weighIns, trend: trendPoints, goal: goal,
                           xTicks: dayTicks(from: first, to: today, formats: formats),
                           period: "\(label), \(end(first)) – \(end(today))")
    }

    /// How far outside the weights a goal may lie and still widen the axis: a quarter of their range, at
    /// least one unit (a kilogram or pound).
    static func goalReach(_ low: Double, _ high: Double) -> Double { max(1, (high - low) / 4) }

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
