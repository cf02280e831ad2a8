import HealthCore
import HealthModel
import HealthViewModels
import Terminal

/// The Insights screen: findings at the top, the weekday table of medians, then the correlations (or, after
/// Enter, the selected pair's two series side by side). On a short terminal the table gives way first.
@MainActor
struct InsightsView {
    let model: InsightsModel
    let table: TableState

    /// How the panel's rows are shared: (findings, table rows), the rest going to the correlations, which
    /// keep room for up to 6 of theirs first; on a short terminal the table goes before they do.
    static func split(inner: Rect, model: InsightsModel) -> (findings: Int, averages: Int) {
        let findings = min(max(model.findings.count, 1), inner.height >= 20 ? 4 : 2)
        let correlations = 2 + max(1, min(model.correlations.count, 6))   // title, rows, footer
        // What is left for the table: its header, its rows and the rule under it.
        let room = inner.height - (1 + findings) - 1 - correlations - 1
        let averages = room >= 3 ? min(model.averages.count, room - 1) : 0
        return (findings, averages)
    }

    static func correlationRows(in area: Rect, model: InsightsModel) -> Int {
        let inner = area.inset(1)
        let (findings, averages) = split(inner: inner, model: model)
        let used = 1 + findings + 1 + (averages > 0 ? averages + 2 : 0)
        return max(1, inner.height - used - 2)   // title line and footer
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let inner = canvas.panel(area, title: "Insights")
        let x = inner.x + 1, width = inner.width - 2
        var y = inner.y
        guard model.hasLoaded else {
            let text = model.problem.map { "Insights unavailable: \($0)" } ?? "computing…"
            canvas.text(text, at: Point(x: x, y: y), style: .dim, maxWidth: width)
            return
        }
        let (findingRows, tableRows) = Self.split(inner: inner, model: model)
        // The pair's charts need the height: the weekday table steps aside while they are open.
        let averageRows = model.detail == nil ? tableRows : 0

        canvas.text("Findings", at: Point(x: x, y: y), style: Styles.columnHeader)
        y += 1
        if model.findings.isEmpty {
            canvas.text("nothing stands out yet: findings need a few weeks of readings", at: Point(x: x + 2, y: y), style: .dim, maxWidth: width - 2)
        }
        for finding in model.findings.prefix(findingRows) {
            canvas.text("• " + finding, at: Point(x: x, y: y), style: Styles.value, maxWidth: width)
            y += 1
        }
        y = inner.y + 1 + findingRows
        canvas.horizontalLine(at: Point(x: inner.x, y: y), width: inner.width, style: .border)
        y += 1
        if averageRows > 0 {
            drawAverages(on: canvas, x: x, y: y, width: width, rows: averageRows)
            y += averageRows + 1
            canvas.horizontalLine(at: Point(x: inner.x, y: y), width: inner.width, style: .border)
            y += 1
        }
        let rest = Rect(x: inner.x, y: y, width: inner.width, height: inner.maxY - y)
        if let detail = model.detail {
            drawDetail(detail, on: canvas, in: rest)
        } else {
            drawCorrelations(on: canvas, in: rest)
        }
    }

    /// Medians per weekday; a weekday a tenth or more above its overall is bold accent (▲), below dim (▼),
    /// so monochrome reads the same from the marks.
    private func drawAverages(on canvas: Canvas, x: Int, y: Int, width: Int, rows: Int) {
        let labelW = max(12, min(24, width - 9 - 7 * 7))
        let cellW = 7
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        canvas.text("Medians, 60 days", at: Point(x: x, y: y), style: Styles.columnHeader, maxWidth: labelW)
        canvas.text("all", rightAlignedTo: x + labelW + 8, y: y, style: Styles.columnHeader)
        for (i, name) in names.enumerated() where x + labelW + 8 + (i + 1) * cellW <= x + width {
            canvas.text(name, rightAlignedTo: x + labelW + 8 + (i + 1) * cellW, y: y, style: Styles.columnHeader)
        }
        for (row, average) in model.averages.prefix(rows).enumerated() {
            let ry = y + 1 + row
            canvas.text(average.label, at: Point(x: x, y: ry), style: Styles.label, maxWidth: labelW)
            canvas.text(average.overall, rightAlignedTo: x + labelW + 8, y: ry, style: Style(.text, bold: true))
            for (i, (value, shade)) in zip(average.weekdays, average.shades).enumerated() {
                let right = x + labelW + 8 + (i + 1) * cellW
                guard right <= x + width else { break }
                let (mark, style): (String, Style) = switch shade {
                case .above: ("▲", Style(.accent, bold: true))
                case .below: ("▼", Style(.dim))
                case .near, .none: (" ", Styles.value)
                }
                canvas.text(value + mark, rightAlignedTo: right, y: ry, style: style, maxWidth: cellW - 1)
            }
        }
    }

    private func drawCorrelations(on canvas: Canvas, in rect: Rect) {
        let x = rect.x + 1, width = rect.width - 2
        canvas.text("Correlations", at: Point(x: x, y: rect.y), style: Styles.columnHeader)
        canvas.text(model.testedNote, rightAlignedTo: rect.maxX - 1, y: rect.y, style: Styles.label, maxWidth: max(0, width - 14))
        guard !model.correlations.isEmpty else {
            let text = model.testedNote.hasPrefix("0 ") ? "none yet: a pair needs 30 days with both values"
                                                       : "none survives the false-discovery control"
            canvas.text(text, at: Point(x: x + 2, y: rect.y + 1), style: .dim, maxWidth: width - 2)
            return
        }
        let top = table.offset
        let shown = max(0, min(rect.height - 2, table.pageSize))
        for (offset, row) in model.correlations.dropFirst(top).prefix(shown).enumerated() {
            let y = rect.y + 1 + offset
            let selected = top + offset == model.selectedIndex
            if selected {
                canvas.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), character: " ", style: Styles.selectedRow)
                canvas.text("›", at: Point(x: rect.x, y: y), style: Styles.selectedText)
            }
            let base = selected ? Styles.selectedText : Styles.value
            let right = "\(row.strength)  \(row.days)"
            let rightW = DisplayWidth.of(right)
            canvas.text(row.stars, at: Point(x: x, y: y), style: selected ? base : Style(.accent, bold: true), maxWidth: 5)
            canvas.text(row.sentence, at: Point(x: x + 6, y: y), style: base, maxWidth: max(0, width - 6 - rightW - 2))
            if width > rightW + 30 { canvas.text(right, rightAlignedTo: x + width, y: y, style: selected ? base : Styles.label) }
        }
        let footer = "\(model.selectedIndex + 1) of \(model.correlations.count) · Enter: the two series"
            + (model.expectedNote.map { " · " + $0 } ?? "")
        canvas.text(footer, at: Point(x: x, y: rect.maxY - 1), style: .dim, maxWidth: width)
    }

    /// The pair's two series over the last 60 days, side by side, as small braille charts.
    private func drawDetail(_ detail: CorrelationDetail, on canvas: Canvas, in rect: Rect) {
        let x = rect.x + 1, width = rect.width - 2
        canvas.text(detail.sentence, at: Point(x: x, y: rect.y), style: Style(.text, bold: true), maxWidth: width)
        canvas.text(detail.summary, at: Point(x: x, y: rect.y + 1), style: Styles.label, maxWidth: width)
        let chartH = max(1, rect.height - 4)
        let half = (width - 2) / 2
        for (i, series) in [detail.first, detail.second].enumerated() {
            let cx = x + i * (half + 2)
            canvas.text(series.title, at: Point(x: cx, y: rect.y + 2), style: Styles.columnHeader, maxWidth: half)
            let chartRect = Rect(x: cx, y: rect.y + 3, width: half, height: chartH)
            Self.chart(series).draw(on: canvas, in: chartRect)
        }
        canvas.text("last \(InsightsModel.detailDays) days · Enter or Esc: back to the list", at: Point(x: x, y: rect.maxY - 1),
                    style: .dim, maxWidth: width)
    }

    static func chart(_ series: CorrelationDetail.Series) -> LineChart {
        let present = series.values.enumerated().compactMap { i, v in v.map { LineChart.Point2(x: Double(i), y: $0) } }
        let low = present.map(\.y).min() ?? 0, high = present.map(\.y).max() ?? 1
        let yRange = low < high ? low...high : (low - 1)...(high + 1)
        let ends = series.range.split(separator: "–").map(String.init)
        let ticks = ends.count == 2 ? [LineChart.Tick(value: yRange.lowerBound, label: ends[0]),
                                       LineChart.Tick(value: yRange.upperBound, label: ends[1])] : []
        return LineChart(xRange: 0...Double(max(1, series.values.count - 1)), yRange: yRange, points: present, line: [],
                         level: nil, yTicks: ticks, xTicks: [])
    }
}
