import HealthCore
import HealthModel
import HealthViewModels
import Terminal

/// The HRV screen: the latest measurement (Welltory's three scores as gauges, the figures, the baseline's
/// verdict, the share link), RMSSD by day as a braille chart with the baseline band, then the measurements
/// newest first.
@MainActor
struct HRVView {
    let model: HRVModel
    let table: TableState

    /// Where each part of the screen goes in its panel: worked out once, and read alike by the screen (to
    /// page and click the table) and by drawing, so the two can never place the table differently.
    struct Layout {
        /// The panel's inside.
        let inner: Rect
        /// Rows above the table: heading, three gauges, figures, note, link, rule, the trend's title, its
        /// chart, rule; on a short terminal only heading, figures, note and a rule.
        let header: Int
        /// Whether the gauges, the link and the chart are shown (a terminal of 20 inner rows or more).
        var full: Bool { header > 4 }
        /// The trend's title and chart with its day labels: at least five rows of braille wherever the chart
        /// is shown (fewer draw a pattern that reads as nothing), seven on a tall terminal; nil when not shown.
        let trend: Rect?
        /// The rule above the trend (when shown) and the one above the table.
        let trendRuleY: Int, tableRuleY: Int
        /// The table: its column titles on the first row, the measurements below.
        let table: Rect
        /// The prompt, question or position line.
        let footerY: Int

        init(area: Rect) {
            inner = area.inset(1)
            let full = inner.height >= 20
            let chartRows = inner.height >= 30 ? 8 : 6
            header = full ? 10 + chartRows : 4
            trend = full ? Rect(x: inner.x + 1, y: inner.y + 8, width: inner.width - 2, height: chartRows) : nil
            trendRuleY = inner.y + 7
            tableRuleY = inner.y + header - 1
            table = Rect(x: inner.x, y: inner.y + header, width: inner.width, height: max(0, inner.height - header - 1))
            footerY = inner.maxY - 1
        }

        /// How many measurements fit in the table (one at least, for the selection to stand on).
        var tableRows: Int { max(1, table.height - 1) }
        /// The screen row of the table's first measurement.
        var firstRowY: Int { table.y + 1 }
    }

    /// A colour's style; the word is always drawn beside it, so monochrome says the same.
    static func style(_ color: HRVColor) -> Style {
        switch color {
        case .green: Style(.good, bold: true)
        case .yellow: Style(.warning, bold: true)
        case .red: Style(.bad, bold: true)
        case .unknown: Style(.dim)
        }
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let layout = Layout(area: area)
        let inner = canvas.panel(area, title: model.title)
        let x = inner.x + 1, width = inner.width - 2
        let full = layout.full
        var y = inner.y
        if let latest = model.latest {
            let used = canvas.text("Latest  " + latest.heading, at: Point(x: x, y: y), style: Style(.text, bold: true), maxWidth: width)
            if full, let from = latest.scoresFrom, used + 3 < width {
                canvas.text(from, at: Point(x: x + used + 3, y: y), style: Styles.label, maxWidth: width - used - 3)
            }
            y += 1
            for gauge in latest.gauges.prefix(full ? 3 : 0) {
                canvas.text(gauge.label, at: Point(x: x, y: y), style: Styles.label, maxWidth: 13)
                let barW = max(4, min(24, width - 34))
                canvas.bar(at: Point(x: x + 14, y: y), width: barW, fraction: gauge.fraction, style: Self.style(gauge.color))
                canvas.text(gauge.value, rightAlignedTo: x + 14 + barW + 6, y: y, style: Styles.value)
                canvas.text(gauge.color.word, at: Point(x: x + 14 + barW + 8, y: y), style: Self.style(gauge.color),
                            maxWidth: max(0, width - barW - 22))
                y += 1
            }
            y = inner.y + (full ? 4 : 1)
            var fx = x
            for (index, figure) in latest.figures.enumerated() {
                let text = "\(figure.label) \(figure.value)"
                // Room for the separator before it and the RMSSD's word after it.
                guard fx + DisplayWidth.of(text) + (index > 0 ? 5 : 7) < inner.maxX else { break }
                if index > 0 { fx += canvas.text("  ·  ", at: Point(x: fx, y: y), style: Styles.label) }
                fx += canvas.text(text, at: Point(x: fx, y: y), style: index == 0 ? Style(.text, bold: true) : Styles.value)
                if index == 0, latest.rmssdColor != .unknown {
                    fx += canvas.text(" " + latest.rmssdColor.word, at: Point(x: fx, y: y), style: Self.style(latest.rmssdColor))
                }
            }
            canvas.text(latest.baselineNote, at: Point(x: x, y: y + 1), style: Styles.label, maxWidth: width)
            if full, let link = latest.shareLink {
                canvas.text("Share: " + link, at: Point(x: x, y: y + 2), style: Styles.label, maxWidth: width)
            }
        } else {
            let text = model.isRefreshing ? "loading…" : "No HRV measurements yet. Press a to add one, or run `hmon hrv link`."
            canvas.text(text, at: Point(x: x, y: y), style: .dim, maxWidth: width)
        }
        if let trend = layout.trend {
            canvas.horizontalLine(at: Point(x: inner.x, y: layout.trendRuleY), width: inner.width, style: .border)
            drawTrend(on: canvas, x: trend.x, y: trend.y, width: trend.width, height: trend.height)
        }
        canvas.horizontalLine(at: Point(x: inner.x, y: layout.tableRuleY), width: inner.width, style: .border)
        drawTable(on: canvas, in: layout.table)
        drawFooter(on: canvas, y: layout.footerY, x: x, width: width)
    }

    private func drawTrend(on canvas: Canvas, x: Int, y: Int, width: Int, height: Int) {
        guard let trend = model.trend else {
            canvas.text("RMSSD: no measurement in the last \(model.days) days", at: Point(x: x, y: y), style: .dim, maxWidth: width)
            return
        }
        var tx = x
        for (text, style) in [("RMSSD by day", Style(.text, bold: true)), (trend.period, Styles.label), (trend.band, Styles.label),
                              ("[ ]: 30/90 days", Styles.label)] {
            guard tx + DisplayWidth.of(text) < x + width else { break }
            tx += canvas.text(text, at: Point(x: tx, y: y), style: style) + 3
        }
        // The scale covers the band too, so the line sits visibly above, inside or below it. Days without a
        // measurement are left out of the line, which joins the days either side.
        let days = trend.values.enumerated().compactMap { day, value in value.map { LineChart.Point2(x: Double(day), y: $0) } }
        var chart = LineChart(xRange: 0...Double(max(trend.values.count - 1, 1)), yRange: trend.scale, points: days, line: days,
                              level: nil, yTicks: [],
                              xTicks: trend.xTicks.map { .init(value: $0.value, label: $0.label) })
        chart.alignAxis(low: trend.scale.lowerBound, high: trend.scale.upperBound, height: height) { value, decimals in
            WeightChart.axisLabel(value, decimals: decimals)
        }
        if let low = trend.bandLowMs, let high = trend.bandHighMs { chart.band = low...high }
        chart.draw(on: canvas, in: Rect(x: x, y: y + 1, width: width, height: height))
    }

    /// A table column: its title, its width with the gap before it, and its rank: on a narrow terminal the
    /// columns of highest rank give way first, so the date, the RMSSD, Apple's SDNN and the baseline's word
    /// (or "refused") stay longest; the source, which says why beats were refused, comes next.
    struct Column {
        let title: String
        let width: Int
        let rank: Int
        let rightAligned: Bool
        let value: (HRVRow) -> String
    }

    static let allColumns: [Column] = [
        Column(title: "Date", width: 23, rank: 0, rightAligned: false, value: \.date),
        Column(title: "RMSSD", width: 7, rank: 1, rightAligned: true, value: \.rmssd),
        // The night that ended that morning, beside its HRV.
        Column(title: "Slept", width: 8, rank: 5, rightAligned: true, value: \.sleep),
        Column(title: "SDNN", width: 8, rank: 6, rightAligned: true, value: \.sdnn),
        Column(title: "Apple SDNN", width: 12, rank: 2, rightAligned: true, value: \.appleSDNN),
        Column(title: "Stress", width: 9, rank: 8, rightAligned: true, value: \.stress),
        Column(title: "HR", width: 6, rank: 7, rightAligned: true, value: \.heartRate),
        Column(title: "Baseline", width: 10, rank: 3, rightAligned: false, value: \.word),
        // The last column takes the rest of the width.
        Column(title: "Source", width: 12, rank: 4, rightAligned: false, value: { $0.refusal ?? $0.source }),
    ]

    /// The columns that fit in `width` cells, in drawing order.
    static func columns(fitting width: Int) -> [Column] {
        var shown = allColumns
        while shown.reduce(0, { $0 + $1.width }) > width, let widest = shown.max(by: { $0.rank < $1.rank }), widest.rank > 0 {
            shown.removeAll { $0.rank == widest.rank }
        }
        return shown
    }

    private func drawTable(on canvas: Canvas, in rect: Rect) {
        let x0 = rect.x + 3, room = rect.maxX - x0 - 1
        let shown = Self.columns(fitting: room)
        /// Draws each shown column's text for one row at `y`; the first (the date) starts at `x0`, the others
        /// after a two-cell gap, the numbers right-aligned to the column's end.
        func cells(_ texts: [String], y: Int, style: (Int) -> Style) {
            var x = x0
            for (index, (column, text)) in zip(shown, texts).enumerated() {
                let last = index == shown.count - 1
                if column.rightAligned {
                    canvas.text(text, rightAlignedTo: x + column.width, y: y, style: style(index))
                } else {
                    let gap = index == 0 ? 0 : 2
                    let width = last ? room - (x - x0) - gap : column.width - gap
                    canvas.text(text, at: Point(x: x + gap, y: y), style: style(index), maxWidth: max(0, width))
                }
                x += column.width
            }
        }
        cells(shown.map(\.title), y: rect.y) { _ in Styles.columnHeader }
        guard !model.rows.isEmpty, rect.height > 1 else { return }
        let top = table.offset
        for (offset, row) in model.rows.dropFirst(top).prefix(min(rect.height - 1, table.pageSize)).enumerated() {
            let y = rect.y + 1 + offset
            let selected = top + offset == model.selectedIndex
            if selected { canvas.selectedRow(in: rect, y: y) }
            let base = selected ? Styles.selectedText : Styles.value
            cells(shown.map { $0.value(row) }, y: y) { index in
                guard !selected, shown[index].title == "Baseline" else { return base }
                return row.refusal != nil ? Style(.warning) : Self.style(row.color)
            }
        }
    }

    private func drawFooter(on canvas: Canvas, y: Int, x: Int, width: Int) {
        if let prompt = model.prompt {
            PromptLine(field: prompt).draw(on: canvas, x: x, y: y, width: width)
            return
        }
        if let question = model.deleting?.question {
            canvas.text(question, at: Point(x: x, y: y), style: Style(.text, bold: true), maxWidth: width)
            return
        }
        var text = model.rows.isEmpty ? "" : "\(model.selectedIndex + 1) of \(model.rows.count)\(model.hasOlder ? "+" : "")"
        // Said here too: on a narrow terminal the table's source column, which says why, gives way.
        if model.rows.indices.contains(model.selectedIndex), let refusal = model.rows[model.selectedIndex].refusal {
            text += " · " + refusal
        }
        if model.isLoadingOlder { text += " · loading older…" }
        canvas.text(text, at: Point(x: x, y: y), style: .dim, maxWidth: width)
    }
}
