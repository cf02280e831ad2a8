import HealthViewModels
import Terminal
import CheckedNumbers

/// `?` / F1: every binding that applies, printed from the key tables: what is open, the screen's own
/// keys, then the global ones.
@MainActor
struct HelpOverlay {
    let sections: [(title: String, bindings: [Binding])]

    /// One line of the overlay: a section title, a binding, or a blank between sections.
    private enum Entry { case title(String), binding(Binding), blank }

    func draw(on canvas: Canvas, in area: Rect) {
        var entries: [Entry] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { entries.append(.blank) }
            entries.append(.title(section.title))
            entries += section.bindings.map { .binding($0) }
        }
        let all = sections.flatMap(\.bindings)
        let keyW = all.map { DisplayWidth.of($0.keyNames) }.max() ?? 6
        let helpW = all.map { DisplayWidth.of($0.help) }.max() ?? 20
        // As many columns as it takes to fit the height; text is cut rather than the list.
        let rowsAvailable = max(1, area.height - 2)
        let columns = max(1, Int(rounding: Double(entries.count) / Double(rowsAvailable), .up))
        let rows = Int(rounding: Double(entries.count) / Double(columns), .up)
        let columnW = min(keyW + helpW + 5, max(12, (area.width - 2) / columns))
        let boxWidth = min(area.width, columnW * columns + 2)
        let height = min(area.height, rows + 2)
        let rect = Rect(x: area.x + (area.width - boxWidth) / 2, y: area.y + max(0, (area.height - height) / 2),
                        width: boxWidth, height: height)
        let inner = canvas.panel(rect, title: "Keys · any key closes")
        let keyColumn = min(keyW, columnW / 2)
        for (i, entry) in entries.enumerated() {
            let x = inner.x + 1 + (i / rows) * columnW
            let y = inner.y + i % rows
            guard y < inner.maxY else { continue }
            switch entry {
            case .title(let title):
                canvas.text(title, at: Point(x: x, y: y), style: Styles.columnHeader, maxWidth: columnW - 1)
            case .binding(let binding):
                canvas.text(binding.keyNames, at: Point(x: x + 1, y: y), style: Styles.key, maxWidth: keyColumn)
                canvas.text(binding.help, at: Point(x: x + keyColumn + 3, y: y), style: Styles.value,
                            maxWidth: max(0, columnW - keyColumn - 4))
            case .blank:
                break
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
            canvas.text("↑/↓ choose · Enter next · Esc cancel", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: .dim, maxWidth: inner.width - 2)
        case .name:
            canvas.text(form.name.label, at: Point(x: inner.x + 1, y: inner.y), style: Styles.label, maxWidth: inner.width - 2)
            let fieldW = inner.width - 4
            canvas.fill(Rect(x: inner.x + 1, y: inner.y + 2, width: fieldW, height: 1), character: " ", style: Styles.input)
            let used = canvas.text(form.name.text, at: Point(x: inner.x + 1, y: inner.y + 2), style: Styles.input, maxWidth: fieldW)
            canvas.text("▏", at: Point(x: inner.x + 1 + used, y: inner.y + 2), style: Style(.accent, bold: true))
            canvas.text("Enter add · Esc cancel", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: .dim, maxWidth: inner.width - 2)
        }
    }
}
