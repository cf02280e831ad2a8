import HealthViewModels
import Terminal
import CheckedNumbers

/// `?` / F1: every binding that applies, printed from the key tables: what is open, the screen's own
/// keys, then the global ones. A help text too long for its column wraps under itself rather than being
/// cut, and the overlay takes as many columns as the height needs.
@MainActor
struct HelpOverlay {
    let sections: [(title: String, bindings: [Binding])]
    /// The box's title while the help is narrowed (`HelpFilter.title`); nil: how to close and filter it.
    var title: String?
    /// Which page shows when the keys do not fit at once (↓/PgDn and ↑/PgUp turn them; see `pages(in:)`).
    var page = 0

    /// One row of the overlay: a section title, a binding's keys with the first line of its help, a further
    /// line of a help text, or a blank between sections.
    private enum Row { case title(String), binding(keys: String, help: String), more(String), blank }

    private struct Layout {
        var columnWidth: Int
        var keyColumn: Int
        var columns: [[Row]]
        var rows: Int { columns.map(\.count).max() ?? 0 }
    }

    /// The entries in `count` columns: each binding's help wrapped to the column, a section's title and a
    /// binding never split from their rows, the columns filled evenly from the left.
    private func layout(columns count: Int, width: Int) -> Layout {
        let all = sections.flatMap(\.bindings)
        let keyW = all.map { DisplayWidth.of($0.keyNames) }.max() ?? 6
        let helpW = all.map { DisplayWidth.of($0.help) }.max() ?? 20
        let columnWidth = min(keyW + helpW + 5, max(12, (width - 2) / count))
        let keyColumn = min(keyW, columnWidth / 2)
        let helpWidth = max(1, columnWidth - keyColumn - 4)
        var blocks: [[Row]] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { blocks.append([.blank]) }
            blocks.append([.title(section.title)])
            for binding in section.bindings {
                let lines = WordWrap.lines(binding.help, width: helpWidth)
                blocks.append([.binding(keys: binding.keyNames, help: lines.first ?? "")] + lines.dropFirst().map { .more($0) })
            }
        }
        return Layout(columnWidth: columnWidth, keyColumn: keyColumn, columns: Self.pack(blocks, into: count))
    }

    /// The blocks in at most `count` columns, in order, none split, with the tallest column as short as it
    /// can be: the smallest height that every block fits under, found by trying each from the even share up.
    private static func pack(_ blocks: [[Row]], into count: Int) -> [[Row]] {
        let total = blocks.reduce(0) { $0 + $1.count }
        var height = max(blocks.map(\.count).max() ?? 0, Int(rounding: Double(total) / Double(max(count, 1)), .up))
        while true {
            var columns: [[Row]] = [[]]
            for block in blocks {
                if !columns[columns.count - 1].isEmpty, columns[columns.count - 1].count + block.count > height {
                    columns.append([])
                    if case .blank = block.first { continue }   // a column does not start blank
                }
                columns[columns.count - 1] += block
            }
            if columns.count <= count { return columns }
            height += 1
        }
    }

    /// The fewest columns whose rows fit; on a screen too small for any, the layout with the fewest rows,
    /// shown a page at a time. Columns narrower than 24 cells would leave a help text a few letters a line.
    private func bestLayout(in area: Rect) -> Layout {
        let rowsAvailable = max(1, area.height - 2)
        let most = max(1, min(4, (area.width - 2) / 24))
        let candidates: [Layout] = (1...most).map { self.layout(columns: $0, width: area.width) }
        return candidates.first { $0.rows <= rowsAvailable } ?? candidates.min { $0.rows < $1.rows }!
    }

    /// Rows of the list a page shows: the overlay's inside, less the line that says how to turn pages.
    private static func rowsPerPage(_ layout: Layout, in area: Rect) -> Int {
        let inside = max(1, min(area.height, layout.rows + 2) - 2)
        return layout.rows > inside ? max(1, inside - 1) : inside
    }

    /// How many pages the keys take in `area`: 1 when they fit, more on a small terminal.
    func pages(in area: Rect) -> Int {
        let layout = bestLayout(in: area)
        let perPage = Self.rowsPerPage(layout, in: area)
        return max(1, (layout.rows + perPage - 1) / perPage)
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let layout = bestLayout(in: area)
        let boxWidth = min(area.width, layout.columnWidth * layout.columns.count + 2)
        let height = min(area.height, layout.rows + 2)
        let rect = Rect(x: area.x + (area.width - boxWidth) / 2, y: area.y + max(0, (area.height - height) / 2),
                        width: boxWidth, height: height)
        let pageCount = pages(in: area)
        let shown = min(max(page, 0), pageCount - 1)
        let inner = canvas.panel(rect, title: title ?? (pageCount > 1 ? "Keys · \(shown + 1) of \(pageCount) · type to filter"
                                                                   : "Keys · type to filter, @ a key · Esc closes"))
        let helpX = layout.keyColumn + 3, helpWidth = max(0, layout.columnWidth - layout.keyColumn - 4)
        // Too short for every row: pages, and the last line says how to turn them rather than cutting the list.
        let perPage = Self.rowsPerPage(layout, in: area)
        if pageCount > 1 {
            let turn = shown + 1 < pageCount ? "↓ PgDn more" : "↑ PgUp back"
            canvas.text("\(turn) · Esc closes", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: .dim,
                        maxWidth: inner.width - 2)
        }
        let first = shown * perPage
        for (c, column) in layout.columns.enumerated() {
            let x = inner.x + 1 + c * layout.columnWidth
            for (r, row) in column.dropFirst(first).prefix(perPage).enumerated() {
                let y = inner.y + r
                switch row {
                case .title(let title):
                    canvas.text(title, at: Point(x: x, y: y), style: Styles.columnHeader, maxWidth: layout.columnWidth - 1)
                case .binding(let keys, let help):
                    canvas.text(keys, at: Point(x: x + 1, y: y), style: Styles.key, maxWidth: layout.keyColumn)
                    canvas.text(help, at: Point(x: x + helpX, y: y), style: Styles.value, maxWidth: helpWidth)
                case .more(let help):
                    canvas.text(help, at: Point(x: x + helpX, y: y), style: Styles.value, maxWidth: helpWidth)
                case .blank:
                    break
                }
            }
        }
    }
}

/// A yes/no question in a small centred box.
struct ConfirmOverlay {
    let question: String
    let keys: [Binding]

    func draw(on canvas: Canvas, in area: Rect) {
        let answer = keys.filter { $0.action != .quit }.map { "\($0.keys.first!.description) \($0.help)" }.joined(separator: " · ")
        let width = min(area.width - 4, max(DisplayWidth.of(question), DisplayWidth.of(answer)) + 6)
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - 5) / 2, width: width, height: 5)
        let inner = canvas.panel(rect, title: nil)
        canvas.text(question, centredIn: inner, row: inner.y, style: Style(.text, bold: true))
        canvas.text(answer, centredIn: inner, row: inner.y + 2, style: Styles.key)
    }
}

/// `a` on the devices screen: pick a device type, then type its name.
struct AddDeviceOverlay {
    let form: AddDeviceForm

    func draw(on canvas: Canvas, in area: Rect) {
        let width = min(area.width - 4, 56)
        let listRows = min(form.typeNames.count, max(1, area.height - 8))
        let height = min(area.height, listRows + 6)
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - height) / 2), width: width, height: height)
        let inner = canvas.panel(rect, title: "Add a device")
        switch form.stage {
        case .pickType:
            canvas.text("Type of device:", at: Point(x: inner.x + 1, y: inner.y), style: Styles.label)
            let top = max(0, min(form.selectedType - listRows + 1, form.typeNames.count - listRows))
            for (offset, name) in form.typeNames.dropFirst(top).prefix(listRows).enumerated() {
                let y = inner.y + 1 + offset
                let selected = top + offset == form.selectedType
                if selected { canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), character: " ", style: Styles.selectedRow) }
                canvas.text((selected ? "› " : "  ") + name, at: Point(x: inner.x + 1, y: y),
                            style: selected ? Styles.selectedText : Styles.value, maxWidth: inner.width - 2)
            }
            canvas.text("↑/↓ or j/k choose · Enter next · Esc cancel", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: .dim, maxWidth: inner.width - 2)
        case .name:
            canvas.text(form.name.label, at: Point(x: inner.x + 1, y: inner.y), style: Styles.label, maxWidth: inner.width - 2)
            let fieldW = inner.width - 4
            TypingField(field: form.name, focused: true).draw(on: canvas, at: Point(x: inner.x + 1, y: inner.y + 2), width: fieldW)
            canvas.text("Enter add · Esc cancel", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: .dim, maxWidth: inner.width - 2)
        }
    }
}
