import HealthViewModels
import Terminal

/// The weight screen: the 90-day trend (a chart when there is room, else a sparkline) with latest,
/// 7-day change and range, then the readings table newest first, and the add-reading prompt.
@MainActor
struct WeightsView {
    let model: WeightsModel

    /// Rows of the trend block (chart plus its figures) for an inner height.
    static func trendHeight(inner: Rect) -> Int { inner.height >= 26 ? 7 : inner.height >= 16 ? 4 : 2 }

    /// How many readings fit in the table.
    static func tableRows(in area: Rect) -> Int {
        let inner = area.inset(1)
        return max(1, inner.height - trendHeight(inner: inner) - 1 - 1 - 1)   // rule, header, prompt/footer line
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let inner = canvas.panel(area, title: "\(model.title) · \(model.subtitle)")
        let trendRows = Self.trendHeight(inner: inner)
        drawTrend(on: canvas, in: Rect(x: inner.x, y: inner.y, width: inner.width, height: trendRows))
        canvas.horizontalLine(at: Point(x: inner.x, y: inner.y + trendRows), width: inner.width, style: .border)
        let table = Rect(x: inner.x, y: inner.y + trendRows + 1, width: inner.width, height: inner.height - trendRows - 2)
        drawTable(on: canvas, in: table)
        drawFooter(on: canvas, y: inner.maxY - 1, x: inner.x + 1, width: inner.width - 2)
    }

    private func drawTrend(on canvas: Canvas, in rect: Rect) {
        guard let trend = model.trend else {
            let text = model.isRefreshing ? "loading…" : "No readings in the last 90 days."
            canvas.text(text, at: Point(x: rect.x + 1, y: rect.y), style: .dim, maxWidth: rect.width - 2)
            return
        }
        let statsY = rect.maxY - 1
        var x = rect.x + 1
        x += canvas.text("90 days ", at: Point(x: x, y: statsY), style: Styles.label)
        x += canvas.text(trend.period, at: Point(x: x, y: statsY), style: Styles.label)
        x += 3
        x += canvas.text("latest ", at: Point(x: x, y: statsY), style: Styles.label)
        x += canvas.text(trend.latest, at: Point(x: x, y: statsY), style: Style(.text, bold: true))
        x += 3
        x += canvas.text(trend.weekChange, at: Point(x: x, y: statsY), style: Styles.change(isGood: trend.weekIsGood),
                         maxWidth: max(0, rect.maxX - x - 1))
        x += 3
        if x + DisplayWidth.of(trend.range) < rect.maxX {
            canvas.text(trend.range, at: Point(x: x, y: statsY), style: Styles.label)
        }
        let chart = Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: rect.height - 1)
        if chart.height >= 2 {
            TrendChart(values: trend.values).draw(on: canvas, in: chart)
        } else {
            canvas.sparkline(trend.values.map { Optional($0) }, at: Point(x: chart.x, y: chart.y), width: chart.width)
        }
    }

    private func drawTable(on canvas: Canvas, in rect: Rect) {
        let x0 = rect.x + 3
        let dateW = 23, weightW = 8, changeW = 8
        canvas.text("Date", at: Point(x: x0, y: rect.y), style: Styles.columnHeader)
        canvas.text(model.unit.rawValue, rightAlignedTo: x0 + dateW + weightW, y: rect.y, style: Styles.columnHeader)
        canvas.text("Change", rightAlignedTo: x0 + dateW + weightW + changeW + 2, y: rect.y, style: Styles.columnHeader)
        let rows = rect.height - 1
        guard !model.rows.isEmpty else {
            let text = model.isRefreshing ? "loading…" : "No readings yet. Press a to add one."
            canvas.text(text, at: Point(x: x0, y: rect.y + 1), style: .dim, maxWidth: rect.width - 4)
            return
        }
        // The model keeps the selection in view; after a resize the view makes sure of it too.
        var top = model.topIndex
        if model.selectedIndex >= top + rows { top = model.selectedIndex - rows + 1 }
        if model.selectedIndex < top { top = model.selectedIndex }
        for (offset, row) in model.rows.dropFirst(top).prefix(rows).enumerated() {
            let y = rect.y + 1 + offset
            let selected = top + offset == model.selectedIndex
            if selected {
                canvas.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), character: " ", style: Styles.selectedRow)
            }
            let base = selected ? Styles.selectedText : Styles.value
            if row.isNew {
                canvas.text("●", at: Point(x: rect.x + 1, y: y), style: selected ? Styles.selectedText : Styles.newMark)
            } else if selected {
                canvas.text("›", at: Point(x: rect.x + 1, y: y), style: Styles.selectedText)
            }
            canvas.text(row.date, at: Point(x: x0, y: y), style: base, maxWidth: dateW)
            canvas.text(row.weight, rightAlignedTo: x0 + dateW + weightW, y: y, style: selected ? base : Style(.text, bold: true))
            if !row.change.isEmpty {
                canvas.text(row.change, rightAlignedTo: x0 + dateW + weightW + changeW + 2, y: y,
                            style: selected ? base : Styles.change(isGood: row.isGood))
            }
            if row.isNew, x0 + dateW + weightW + changeW + 8 < rect.maxX {
                canvas.text("new", at: Point(x: x0 + dateW + weightW + changeW + 4, y: y), style: selected ? base : Styles.newMark)
            }
        }
    }

    private func drawFooter(on canvas: Canvas, y: Int, x: Int, width: Int) {
        if let prompt = model.prompt {
            let used = canvas.text("\(prompt.label): ", at: Point(x: x, y: y), style: Style(.text, bold: true))
            let fieldW = min(14, width - used)
            canvas.fill(Rect(x: x + used, y: y, width: fieldW, height: 1), character: " ", style: Styles.input)
            let typed = canvas.text(prompt.displayText, at: Point(x: x + used, y: y), style: Styles.input, maxWidth: fieldW)
            canvas.text("▏", at: Point(x: x + used + typed, y: y), style: Style(.accent, bold: true))
            canvas.text("Enter save · Esc cancel", at: Point(x: x + used + fieldW + 2, y: y), style: .dim,
                        maxWidth: max(0, width - used - fieldW - 2))
            return
        }
        let position = model.rows.isEmpty ? "" : "\(model.selectedIndex + 1) of \(model.rows.count)\(model.hasOlder ? "+" : "")"
        var text = position
        if model.isLoadingOlder { text += " · loading older…" }
        else if !model.hasOlder && !model.rows.isEmpty { text += " · all readings loaded" }
        canvas.text(text, at: Point(x: x, y: y), style: .dim, maxWidth: width)
    }
}
