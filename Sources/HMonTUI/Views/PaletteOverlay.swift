import HealthViewModels
import Terminal

/// `:`'s box near the top of the screen: the typed line, then the entries it finds with where each belongs
/// and the keys that do the same; the chosen one highlighted. Readable without colour: the chosen row is
/// also marked with ›.
@MainActor
struct PaletteOverlay {
    let palette: CommandPalette
    let entries: [PaletteEntry]

    /// The box and the rows its entries take, for drawing and for clicks alike.
    struct Layout {
        let box: Rect
        let firstEntryY: Int
        let rows: Int
        let top: Int
    }

    static func layout(in area: Rect, entries: Int, selected: Int) -> Layout {
        let width = min(area.width - 2, 72)
        let rows = max(1, min(entries, max(1, area.height - 6), 12))
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + 1, width: width, height: rows + 4)
        let top = min(max(0, selected - rows + 1), max(0, entries - rows))
        return Layout(box: box, firstEntryY: box.y + 2, rows: rows, top: top)
    }

    /// The entry a click at `point` lands on, by its place in `entries`.
    static func entry(at point: Point, in area: Rect, entries: Int, selected: Int) -> Int? {
        let layout = layout(in: area, entries: entries, selected: selected)
        let row = point.y - layout.firstEntryY
        let inner = layout.box.inset(1)
        guard point.x >= inner.x, point.x < inner.maxX, row >= 0, row < layout.rows, layout.top + row < entries else { return nil }
        return layout.top + row
    }

    func draw(on canvas: Canvas, in area: Rect) {
        let layout = Self.layout(in: area, entries: entries.count, selected: palette.selected)
        let inner = canvas.panel(layout.box, title: "Find a screen, an action or a date")
        let x = inner.x + 1, width = inner.width - 2
        let used = canvas.text(": ", at: Point(x: x, y: inner.y), style: Style(.text, bold: true))
        TypingField(field: palette.field, focused: true).draw(on: canvas, at: Point(x: x + used, y: inner.y), width: width - used)
        if entries.isEmpty {
            canvas.text("nothing matches: Backspace to widen, Esc to close", at: Point(x: x, y: layout.firstEntryY), style: .dim, maxWidth: width)
        }
        for (offset, entry) in entries.dropFirst(layout.top).prefix(layout.rows).enumerated() {
            let y = layout.firstEntryY + offset
            let chosen = layout.top + offset == palette.selected
            if chosen { canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), character: " ", style: Styles.selectedRow) }
            let keysW = min(12, DisplayWidth.of(entry.keys))
            if keysW > 0 { canvas.text(entry.keys, rightAlignedTo: inner.maxX - 1, y: y, style: chosen ? Styles.selectedText : Styles.key) }
            let groupW = min(14, DisplayWidth.of(entry.group))
            let groupX = inner.maxX - 1 - keysW - (keysW > 0 ? 2 : 0) - groupW
            canvas.text(entry.group, at: Point(x: groupX, y: y), style: chosen ? Styles.selectedText : Styles.label, maxWidth: groupW)
            canvas.text((chosen ? "› " : "  ") + entry.title, at: Point(x: x, y: y), style: chosen ? Styles.selectedText : Styles.value,
                        maxWidth: max(0, groupX - x - 1))
        }
        let footer = palette.problem ?? "↑↓ choose · Enter run · Esc close"
        canvas.text(footer, at: Point(x: x, y: inner.maxY - 1), style: palette.problem == nil ? .dim : Style(.warning, bold: true), maxWidth: width)
    }
}
