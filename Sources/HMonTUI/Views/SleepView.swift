import HealthModel
import HealthViewModels
import Terminal

/// The Sleep screen: the regularity and debt, the selected night's hypnogram (a row a stage, so it reads the
/// same without colour), time asleep by night against the need on a tall terminal, and the nights.
@MainActor
struct SleepView {
    let model: SleepModel
    let table: TableState

    /// Where each part goes: worked out once, read alike by the screen (to page and click the table) and by
    /// drawing.
    struct Layout {
        let inner: Rect
        /// The hypnogram: its title, four stage rows, the clock and the night's measures.
        let hypnogram: Rect
        /// Time asleep by night; nil on a terminal under 30 inner rows.
        let chart: Rect?
        /// The table: column titles on its first row.
        let table: Rect

        static let hypnogramRows = 7
        static let chartRows = 8

        init(area: Rect) {
            inner = area.inset(1)
            var y = inner.y + 3
            hypnogram = Rect(x: inner.x, y: y, width: inner.width, height: Self.hypnogramRows)
            y += Self.hypnogramRows + 1
            if inner.height >= 30 {
                chart = Rect(x: inner.x, y: y, width: inner.width, height: Self.chartRows)
                y += Self.chartRows + 1
            } else {
                chart = nil
            }
            table = Rect(x: inner.x, y: y, width: inner.width, height: max(0, inner.maxY - y))
        }

        var tableRows: Int { max(1, table.height - 1) }
        var firstRowY: Int { table.y + 1 }
    }

    /// The rows of the hypnogram, top to bottom, each with the stages drawn on it and how.
    static let stageRows: [(label: String, stages: [SleepStage: Character])] = [
        ("Awake", [.awake: "█", .inBed: "░"]),
        ("REM", [.rem: "█"]),
        ("Core", [.core: "█", .unspecified: "▒"]),
        ("Deep", [.deep: "█"]),
    ]

    static func style(_ stage: SleepStage) -> Style {
        switch stage {
        case .awake, .inBed: Style(.warning)
        case .rem: Style(.accent)
        case .core, .unspecified: Style(.graph)
        case .deep: Style(.good, bold: true)
        }
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let layout = Layout(area: area)
        let inner = canvas.panel(area, title: model.title)
        let x = inner.x + 1, width = inner.width - 2
        if !model.hasLoaded {
            canvas.text(model.isRefreshing ? "loading…" : "", at: Point(x: x, y: inner.y), style: .dim, maxWidth: width)
            return
        }
        canvas.text(model.regularity, at: Point(x: x, y: inner.y), style: Style(.text, bold: true), maxWidth: width)
        canvas.text(model.debt, at: Point(x: x, y: inner.y + 1), style: Styles.value, maxWidth: width)
        canvas.horizontalLine(at: Point(x: inner.x, y: layout.hypnogram.y - 1), width: inner.width, style: .border)
        drawHypnogram(on: canvas, in: layout.hypnogram)
        if let chart = layout.chart {
            canvas.horizontalLine(at: Point(x: inner.x, y: chart.y - 1), width: inner.width, style: .border)
            drawChart(on: canvas, in: chart)
        }
        canvas.horizontalLine(at: Point(x: inner.x, y: layout.table.y - 1), width: inner.width, style: .border)
        drawTable(on: canvas, in: layout.table)
    }

    private func drawHypnogram(on canvas: Canvas, in rect: Rect) {
        let x = rect.x + 1, width = rect.width - 2
        guard let night = model.hypnogram else {
            let text = model.sessionNote ?? "No nights in the last \(SleepModel.loadedDays) days: import a Health export or link Health Connect."
            for (i, line) in WordWrap.lines(text, width: max(1, width)).prefix(rect.height).enumerated() {
                canvas.text(line, at: Point(x: x, y: rect.y + i), style: .dim, maxWidth: width)
            }
            return
        }
        canvas.text(night.title, at: Point(x: x, y: rect.y), style: Style(.text, bold: true), maxWidth: width)
        let labelWidth = 6
        let plotX = x + labelWidth, plotWidth = max(1, width - labelWidth)
        let columns = Self.columns(night.minutes, width: plotWidth)
        for (row, line) in Self.stageRows.enumerated() {
            let y = rect.y + 1 + row
            canvas.text(line.label, at: Point(x: x, y: y), style: Styles.label, maxWidth: labelWidth - 1)
            for (column, stage) in columns.enumerated() {
                guard let stage, let mark = line.stages[stage] else { continue }
                canvas.text(String(mark), at: Point(x: plotX + column, y: y), style: Self.style(stage))
            }
        }
        let clockY = rect.y + 5
        canvas.text(night.startLabel, at: Point(x: plotX, y: clockY), style: Styles.label)
        canvas.text(night.endLabel, rightAlignedTo: plotX + columns.count, y: clockY, style: Styles.label)
        canvas.text(night.measures, at: Point(x: x, y: rect.y + 6), style: Styles.label, maxWidth: width)
    }

    /// The night's minutes as `width` columns at most, each the stage most of its minutes were in.
    static func columns(_ minutes: [SleepStage?], width: Int) -> [SleepStage?] {
        guard !minutes.isEmpty else { return [] }
        let count = min(width, minutes.count)
        return (0..<count).map { column in
            let from = column * minutes.count / count, to = max(from + 1, (column + 1) * minutes.count / count)
            var tally: [SleepStage: Int] = [:]
            for stage in minutes[from..<to].compactMap({ $0 }) { tally[stage, default: 0] += 1 }
            return tally.max { a, b in (a.value, Hypnogram.precedence.firstIndex(of: b.key)!) < (b.value, Hypnogram.precedence.firstIndex(of: a.key)!) }?.key
        }
    }

    private func drawChart(on canvas: Canvas, in rect: Rect) {
        let x = rect.x + 1, width = rect.width - 2
        canvas.text(model.chartTitle + "   [ ]: 30/90 days", at: Point(x: x, y: rect.y), style: Style(.text, bold: true), maxWidth: width)
        let labelWidth = 6, bars = rect.height - 2
        let plotX = x + labelWidth, plotWidth = max(1, width - labelWidth)
        let top = max(10, model.needHours + 1, model.chart.compactMap { $0 }.max() ?? 0).rounded(.up)
        let values = Self.buckets(model.chart, width: plotWidth)
        let step = max(1, plotWidth / max(1, values.count))
        let needRow = Int(((top - model.needHours) / top * Double(bars)).rounded(.down))
        canvas.text("\(Int(top)) h", at: Point(x: x, y: rect.y + 1), style: Styles.label)
        canvas.text("\(Int(model.needHours.rounded())) h", at: Point(x: x, y: rect.y + 1 + min(bars - 1, needRow)), style: Styles.label)
        canvas.text("0 h", at: Point(x: x, y: rect.y + bars), style: Styles.label)
        for row in 0..<bars {
            let y = rect.y + 1 + row
            // Eighths of a row, from the top: the bar's part in this row.
            let rowTop = top * Double(bars - row) / Double(bars), rowBottom = top * Double(bars - row - 1) / Double(bars)
            for (index, value) in values.enumerated() {
                let cx = plotX + index * step
                guard let value, value > rowBottom else {
                    if row == needRow { canvas.text("┈", at: Point(x: cx, y: y), style: Styles.label) }
                    continue
                }
                let fill = min(1, (value - rowBottom) / (rowTop - rowBottom))
                let eighths = max(1, Int((fill * 8).rounded()))
                let mark = Array("▁▂▃▄▅▆▇█")[eighths - 1]
                canvas.text(String(mark), at: Point(x: cx, y: y), style: value >= model.needHours ? Style(.good) : Style(.graph))
            }
        }
        let axisY = rect.y + rect.height - 1
        canvas.text("oldest", at: Point(x: plotX, y: axisY), style: Styles.label)
        canvas.text("last night", rightAlignedTo: plotX + values.count * step, y: axisY, style: Styles.label)
    }

    /// The days as at most `width` values: the mean of each group of days sharing a column.
    static func buckets(_ days: [Double?], width: Int) -> [Double?] {
        guard days.count > width else { return days }
        let count = width
        return (0..<count).map { column in
            let from = column * days.count / count, to = max(from + 1, (column + 1) * days.count / count)
            let known = days[from..<to].compactMap { $0 }
            return known.isEmpty ? nil : known.reduce(0, +) / Double(known.count)
        }
    }

    private struct Column {
        var title: String
        var width: Int
        var value: (SleepRow) -> String
    }

    /// The columns that fit `room`: the stages go first on a narrow terminal, the source takes what is left.
    private static func columns(fitting room: Int) -> [Column] {
        var columns = [
            Column(title: "Night", width: 11) { $0.date }, Column(title: "Bed", width: 7) { $0.bed },
            Column(title: "Wake", width: 7) { $0.wake }, Column(title: "Asleep", width: 8) { $0.asleep },
            Column(title: "In bed", width: 8) { $0.inBed }, Column(title: "Eff.", width: 6) { $0.efficiency },
        ]
        if room >= 100 { columns.append(Column(title: "Stages", width: 29) { $0.stages }) }
        columns.append(Column(title: "Source", width: max(6, room - columns.reduce(0) { $0 + $1.width })) { $0.source })
        return columns
    }

    private func drawTable(on canvas: Canvas, in rect: Rect) {
        let x0 = rect.x + 3, room = rect.maxX - x0 - 1
        let shown = Self.columns(fitting: room)
        func cells(_ texts: [String], y: Int, style: Style) {
            var x = x0
            for (column, text) in zip(shown, texts) {
                canvas.text(text, at: Point(x: x, y: y), style: style, maxWidth: max(0, min(column.width - 1, rect.maxX - 1 - x)))
                x += column.width
            }
        }
        cells(shown.map(\.title), y: rect.y, style: Styles.columnHeader)
        guard rect.height > 1 else { return }
        guard !model.rows.isEmpty else {
            canvas.text("No nights yet.", at: Point(x: x0, y: rect.y + 1), style: .dim, maxWidth: room)
            return
        }
        let top = table.offset
        for (offset, row) in model.rows.dropFirst(top).prefix(min(rect.height - 1, table.pageSize)).enumerated() {
            let y = rect.y + 1 + offset
            let selected = top + offset == model.selectedIndex
            if selected { canvas.selectedRow(in: rect, y: y) }
            cells(shown.map { $0.value(row) }, y: y, style: selected ? Styles.selectedText : Styles.value)
        }
    }
}
