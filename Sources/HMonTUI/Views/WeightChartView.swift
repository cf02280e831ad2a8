import HealthViewModels
import Terminal

/// The weight chart model drawn with the braille `LineChart`: weigh-ins as dots, the trend as a line,
/// the goal dashed.
struct WeightChartView {
    let chart: WeightChart

    func draw(on canvas: Canvas, in rect: Rect) {
        LineChart(xRange: 0...max(chart.lastX, 1), yRange: chart.low...chart.high,
                  points: chart.weighIns.map { .init(x: $0.x, y: $0.y) },
                  line: chart.trend.map { .init(x: $0.x, y: $0.y) },
                  level: chart.goal,
                  yTicks: chart.yTicks.map { .init(value: $0.value, label: $0.label) },
                  xTicks: chart.xTicks.map { .init(value: $0.value, label: $0.label) })
            .draw(on: canvas, in: rect)
    }
}
