import HealthViewModels
import Terminal

/// The Vitals screen: the readings table newest first (time, sign, figure, a blood pressure's category,
/// source), the selected row in full beneath it, and the position.
@MainActor
struct VitalsView {
    let model: VitalsModel
    /// Where the table is scrolled to, placed by the screen's layout.
    let table: TableState

    /// Where each part goes in the panel, read alike by the screen (to page and click) and by drawing.
    struct Layout {
        let inner: Rect
        /// The column titles on the first row, the readings below.
        let table: Rect
        /// The selected row in full.
        let detailY: Int
        /// "3 of 45".
        let positionY: Int

        init(area: Rect) {
            inner = area.inset(1)
            table = Rect(x: inner.x, y: inner.y, width: inner.width, height: max(2, inner.height - 3))
            detailY = inner.maxY - 2
            positionY = inner.maxY - 1
        }

        /// How many readings fit (one at least, for the selection to stand on).
        var tableRows: Int { max(1, table.height - 1) }
        var firstRowY: Int { table.y + 1 }
    }

    /// Column widths: "Nov 20, 2026 07:30", "Body temp.", "128/82 mmHg · pulse 64", "elevated".
    static let timeW = 18, signW = 10, valueW = 22, categoryW = 8

    func draw(on canvas: Canvas, in area: Rect) {
        let layout = Layout(area: area)
        let inner = canvas.panel(area, title: "\(model.title) · latest readings, newest first")
        drawTable(on: canvas, in: layout.table)
        canvas.horizontalLine(at: Point(x: inner.x, y: layout.detailY - 1), width: inner.width, style: .border)
        let width = inner.width - 2
        if let line = model.selectedLine {
            canvas.text(line, at: Point(x: inner.x + 1, y: layout.detailY), style: Styles.value, maxWidth: width)
        }
        let position = model.rows.isEmpty ? "" : "\(model.selectedIndex + 1) of \(model.rows.count)"
        canvas.text(position, at: Point(x: inner.x + 1, y: layout.positionY), style: .dim, maxWidth: width)
    }

    private func drawTable(on canvas: Canvas, in rect: Rect) {
        let x0 = rect.x + 3
        let signX = x0 + Self.timeW + 2, valueX = signX + Self.signW + 2, categoryX = valueX + Self.valueW + 2
        let sourceX = categoryX + Self.categoryW + 2
        let categoryW = min(Self.categoryW, max(0, rect.maxX - categoryX - 1))
        let sourceW = max(0, rect.maxX - sourceX - 1)
        canvas.text("Time", at: Point(x: x0, y: rect.y), style: Styles.columnHeader)
        canvas.text("Sign", at: Point(x: signX, y: rect.y), style: Styles.columnHeader)
        canvas.text("Value", at: Point(x: valueX, y: rect.y), style: Styles.columnHeader)
        if categoryW > 0 { canvas.text("Category", at: Point(x: categoryX, y: rect.y), style: Styles.columnHeader, maxWidth: categoryW) }
        if sourceW >= 6 { canvas.text("Source", at: Point(x: sourceX, y: rect.y), style: Styles.columnHeader, maxWidth: sourceW) }
        guard !model.rows.isEmpty else {
            let text = model.isRefreshing || !model.hasLoaded ? "loading…"
                : "No vital signs yet: they come from Health Connect, Health Auto Export, Apple Health, Withings, a FIT file or Gadgetbridge (`hmon import`, `hmon link`)."
            for (i, line) in WordWrap.lines(text, width: max(1, rect.width - 4)).enumerated() where i < rect.height - 1 {
                canvas.text(line, at: Point(x: x0, y: rect.y + 1 + i), style: .dim, maxWidth: rect.width - 4)
            }
            return
        }
        let top = table.offset
        for (offset, row) in model.rows.dropFirst(top).prefix(min(rect.height - 1, table.pageSize)).enumerated() {
            let y = rect.y + 1 + offset
            let selected = top + offset == model.selectedIndex
            if selected { canvas.selectedRow(in: rect, y: y) }
            let base = selected ? Styles.selectedText : Styles.value
            canvas.text(row.time, at: Point(x: x0, y: y), style: base, maxWidth: Self.timeW)
            canvas.text(row.sign, at: Point(x: signX, y: y), style: selected ? base : Styles.label, maxWidth: Self.signW)
            canvas.text(row.value, at: Point(x: valueX, y: y), style: selected ? base : Style(.text, bold: true), maxWidth: Self.valueW)
            if categoryW > 0, !row.category.isEmpty {
                canvas.text(row.category, at: Point(x: categoryX, y: y), style: base, maxWidth: categoryW)
            }
            if sourceW >= 6 { canvas.text(row.source, at: Point(x: sourceX, y: y), style: selected ? base : Styles.label, maxWidth: sourceW) }
        }
    }
}
