import HealthViewModels
import Terminal

/// The weight screen: the trend chart over the chosen span (when there is room) and the summary line,
/// then the readings table newest first, and the add-reading prompt.
@MainActor
struct WeightsView {
    let model: WeightsModel
    /// Where the table is scrolled to, placed by the screen's layout.
    let table: TableState

    /// Where each part of the screen goes in its panel: worked out once, and read alike by the screen (to
    /// page and click the table) and by drawing, so the two can never place the table differently.
    struct Layout {
        /// The panel's inside.
        let inner: Rect
        /// The chart block: span line, chart, its x labels, the summary.
        let trend: Rect
        /// The rule between the chart block and the table.
        let ruleY: Int
        /// The table: its column titles on the first row, the readings below.
        let table: Rect
        /// The prompt, question or position line.
        let footerY: Int

        init(area: Rect) {
            inner = area.inset(1)
            // The chart gets at least five rows wherever it is shown, the table giving way; below that, a
            // one-line sparkline of the trend above the summary.
            let trendRows = inner.height >= 26 ? 12 : inner.height >= 16 ? 8 : 2
            trend = Rect(x: inner.x, y: inner.y, width: inner.width, height: trendRows)
            ruleY = inner.y + trendRows
            table = Rect(x: inner.x, y: ruleY + 1, width: inner.width, height: inner.height - trendRows - 2)
            footerY = inner.maxY - 1
        }

        /// How many readings fit in the table (one at least, for the selection to stand on).
        var tableRows: Int { max(1, table.height - 1) }
        /// The screen row of the table's first reading.
        var firstRowY: Int { table.y + 1 }
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let layout = Layout(area: area)
        let inner = canvas.panel(area, title: "\(model.title) · \(model.subtitle)")
        drawTrend(on: canvas, in: layout.trend)
        canvas.horizontalLine(at: Point(x: inner.x, y: layout.ruleY), width: inner.width, style: .border)
        drawTable(on: canvas, in: layout.table)
        drawFooter(on: canvas, y: layout.footerY, x: inner.x + 1, width: inner.width - 2)
    }

    private func drawTrend(on canvas: Canvas, in rect: Rect) {
        // The summary on the last row, as many figures as fit, most important first.
        let statsY = rect.maxY - 1
        var x = rect.x + 1
        if model.summary.isEmpty {
            let text = model.isRefreshing ? "loading…" : "No weigh-ins yet. Press a to add one."
            canvas.text(text, at: Point(x: x, y: statsY), style: .dim, maxWidth: rect.width - 2)
        }
        func style(_ item: SummaryItem) -> Style {
            item.isBold ? Style(.text, bold: true) : item.isGood == nil ? Styles.label : Styles.change(isGood: item.isGood)
        }
        var drawn = 0
        for item in model.summary {
            let width = DisplayWidth.of(item.text)
            guard x + width < rect.maxX else { break }
            x += canvas.text(item.text, at: Point(x: x, y: statsY), style: style(item)) + 3
            drawn += 1
        }
        let goalLeftOut = model.summary.dropFirst(drawn).first(where: \.isGoal)
        let area = Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: rect.height - 1)
        guard area.height >= 3 else {
            // No room for a chart: the trend's shape in one line, and the span it covers.
            if area.height >= 1, let chart = model.chart {
                let label = "  " + chart.period
                let values = Sparkline.resampled(chart.trend.map(\.y), to: max(0, area.width - DisplayWidth.of(label)))
                canvas.sparkline(values, at: Point(x: area.x, y: area.y), width: values.count)
                canvas.text(label, at: Point(x: area.x + values.count, y: area.y), style: Styles.label,
                            maxWidth: area.width - values.count)
            }
            return
        }
        guard let chart = model.chart else {
            if !model.summary.isEmpty {
                canvas.text("No weigh-ins in the last \(model.span.label). ] shows a longer span.", at: Point(x: area.x, y: area.y),
                            style: .dim, maxWidth: area.width)
            }
            return
        }
        // The span and its keys above the chart, on the right; on the left the goal's date when the summary
        // had no room for it (at 80 columns), since when the goal is reached is what a person looks for.
        let spanText = chart.period + "  [ ] span"
        canvas.text(spanText, rightAlignedTo: area.maxX, y: area.y, style: Styles.label)
        if let goal = goalLeftOut, DisplayWidth.of(goal.text) + 2 + DisplayWidth.of(spanText) <= area.width {
            canvas.text(goal.text, at: Point(x: area.x, y: area.y), style: style(goal))
        }
        WeightChartView(chart: chart).draw(on: canvas, in: Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1))
    }

    private func drawTable(on canvas: Canvas, in rect: Rect) {
        let x0 = rect.x + 3
        let dateW = 23, weightW = 8, changeW = 8
        canvas.text("Date", at: Point(x: x0, y: rect.y), style: Styles.columnHeader)
        canvas.text(model.unit.rawValue, rightAlignedTo: x0 + dateW + weightW, y: rect.y, style: Styles.columnHeader)
        canvas.text("Change", rightAlignedTo: x0 + dateW + weightW + changeW + 2, y: rect.y, style: Styles.columnHeader)
        // Body fat and lean mass where a scale measured them and the table is wide enough to keep the source
        // beside them (from 100 columns).
        let wide = rect.width >= 100
        let fatW = wide && model.hasBodyFat ? 8 : 0, leanW = wide && model.hasLeanMass ? 9 : 0
        let compositionW = fatW + leanW
        let fatRight = x0 + dateW + weightW + changeW + 2 + fatW, leanRight = fatRight + leanW
        if fatW > 0 { canvas.text("Fat %", rightAlignedTo: fatRight, y: rect.y, style: Styles.columnHeader) }
        if leanW > 0 { canvas.text("Lean \(model.unit.rawValue)", rightAlignedTo: leanRight, y: rect.y, style: Styles.columnHeader) }
        // With several scales, each row names its own, and an imported one where it came from; the "new" mark moves past it.
        let sourceX = x0 + dateW + weightW + changeW + 4 + compositionW
        let longest = model.rows.map { DisplayWidth.of($0.source) }.max() ?? 0
        let sourceW = model.showsSource ? min(max(18, min(longest, 28)), max(0, rect.maxX - sourceX - 1)) : 0
        if sourceW > 0 { canvas.text(model.sourceTitle, at: Point(x: sourceX, y: rect.y), style: Styles.columnHeader, maxWidth: sourceW) }
        let rows = min(rect.height - 1, table.pageSize)
        guard !model.rows.isEmpty else {
            let text = model.isRefreshing ? "loading…" : "No readings yet. Press a to add one."
            canvas.text(text, at: Point(x: x0, y: rect.y + 1), style: .dim, maxWidth: rect.width - 4)
            return
        }
        let top = table.offset
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
            if fatW > 0 { canvas.text(row.bodyFat, rightAlignedTo: fatRight, y: y, style: base) }
            if leanW > 0 { canvas.text(row.leanMass, rightAlignedTo: leanRight, y: y, style: base) }
            if sourceW > 0 {
                canvas.text(row.source, at: Point(x: sourceX, y: y), style: selected ? base : Styles.label, maxWidth: sourceW)
            }
            let newX = sourceX + (sourceW > 0 ? sourceW + 2 : 0)
            if row.isNew, newX + 4 < rect.maxX {
                canvas.text("new", at: Point(x: newX, y: y), style: selected ? base : Styles.newMark)
            }
        }
    }

    private func drawFooter(on canvas: Canvas, y: Int, x: Int, width: Int) {
        if let question = model.farFromTrend?.question {
            // Its y/n must stay in view: narrower, the trend's figure in brackets goes first, then the numbers.
            let shorter = question.replacing(/\s\([^)]*\)/, with: "")
            let shown = [question, shorter, "far from your trend — save? y/n"].first { DisplayWidth.of($0) <= width } ?? shorter
            canvas.text(shown, at: Point(x: x, y: y), style: Style(.text, bold: true), maxWidth: width)
            return
        }
        if let prompt = model.prompt {
            PromptLine(field: prompt).draw(on: canvas, x: x, y: y, width: width)
            return
        }
        if let question = model.deleting?.question {
            canvas.text(question, at: Point(x: x, y: y), style: Style(.text, bold: true), maxWidth: width)
            return
        }
        let position = model.rows.isEmpty ? "" : "\(model.selectedIndex + 1) of \(model.rows.count)\(model.hasOlder ? "+" : "")"
        var text = position
        if model.isLoadingOlder { text += " · loading older…" }
        else if !model.hasOlder && !model.rows.isEmpty { text += " · all readings loaded" }
        canvas.text(text, at: Point(x: x, y: y), style: .dim, maxWidth: width)
    }
}
