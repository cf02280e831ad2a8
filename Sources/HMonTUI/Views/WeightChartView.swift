import HealthViewModels
import Terminal

/// The weight chart model drawn with the braille `LineChart`: weigh-ins as dots, the trend as a line, the
/// goal dashed, on a y-axis of round numbers each labelling its own row. A goal outside the axis is marked
/// under the chart with its value and the way it lies (▲ above, ▼ below), so it neither squashes the
/// weights nor goes unsaid.
struct WeightChartView {
    let chart: WeightChart

    func draw(on canvas: Canvas, in rect: Rect) {
        var lineChart = LineChart(xRange: 0...max(chart.lastX, 1), yRange: chart.low...chart.high,
                                  points: chart.weighIns.map { .init(x: $0.x, y: $0.y) },
                                  line: chart.trend.map { .init(x: $0.x, y: $0.y) },
                                  level: nil, yTicks: [],
                                  xTicks: chart.xTicks.map { .init(value: $0.value, label: $0.label) })
        let axis = lineChart.alignAxis(low: chart.low, high: chart.high, height: rect.height) { value, decimals in
            WeightChart.axisLabel(value, decimals: decimals)
        }
        guard let axis else { return }
        if let goal = chart.goal {
            if axis.range.contains(goal) {
                lineChart.level = goal
            } else {
                // On the row of the day labels: over the plot it would hide the latest days.
                lineChart.xNote = "\(goal > axis.range.upperBound ? "▲" : "▼") goal \(WeightChart.axisLabel(goal, decimals: 1))"
            }
        }
        lineChart.draw(on: canvas, in: rect)
    }
}
