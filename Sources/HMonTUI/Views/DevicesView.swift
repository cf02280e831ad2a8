import HealthViewModels
import Terminal

/// "You and your devices": the user card, then the devices table with the selected device's action.
/// Side by side when the terminal is wide, stacked otherwise; a compact card when it is short.
@MainActor
struct DevicesView {
    let model: DevicesModel

    func draw(on canvas: Canvas, in area: Rect) {
        if area.width >= 120 {
            let cardWidth = 44
            drawCard(on: canvas, in: Rect(x: area.x, y: area.y, width: cardWidth, height: min(area.height, 8)))
            drawDevices(on: canvas, in: Rect(x: area.x + cardWidth, y: area.y, width: area.width - cardWidth, height: area.height))
        } else {
            let cardHeight = area.height >= 22 ? 8 : 5
            drawCard(on: canvas, in: Rect(x: area.x, y: area.y, width: area.width, height: cardHeight))
            drawDevices(on: canvas, in: Rect(x: area.x, y: area.y + cardHeight, width: area.width, height: area.height - cardHeight))
        }
    }

    private func drawCard(on canvas: Canvas, in rect: Rect) {
        let inner = canvas.panel(rect, title: "You")
        guard !model.userLines.isEmpty else {
            canvas.text(model.isRefreshing ? "loading…" : "", at: Point(x: inner.x + 1, y: inner.y), style: .dim)
            return
        }
        if inner.height >= model.userLines.count {
            let labelWidth = (model.userLines.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
            for (i, line) in model.userLines.enumerated() {
                let y = inner.y + i
                canvas.text(line.label, at: Point(x: inner.x + 1, y: y), style: Styles.label)
                canvas.text(line.value, at: Point(x: inner.x + 1 + labelWidth, y: y), style: Styles.value,
                            maxWidth: inner.width - labelWidth - 2)
            }
        } else {
            // Three lines: who, how to reach them, when; label and value pairs in a row.
            let rows = stride(from: 0, to: model.userLines.count, by: 2).map { Array(model.userLines[$0..<min($0 + 2, model.userLines.count)]) }
            let order = [rows.indices.contains(1) ? rows[1] : [], rows.indices.contains(0) ? rows[0] : [], rows.indices.contains(2) ? rows[2] : []]
            let half = inner.width / 2
            for (r, pair) in order.enumerated() where r < inner.height {
                for (c, line) in pair.enumerated() {
                    let x = inner.x + 1 + c * half
                    let used = canvas.text(line.label + " ", at: Point(x: x, y: inner.y + r), style: Styles.label)
                    canvas.text(line.value, at: Point(x: x + used, y: inner.y + r), style: Styles.value,
                                maxWidth: max(0, half - used - 2))
                }
            }
        }
    }

    private func drawDevices(on canvas: Canvas, in rect: Rect) {
        let inner = canvas.panel(rect, title: "Devices")
        guard inner.height >= 3 else { return }
        guard !model.rows.isEmpty else {
            let message = model.isRefreshing ? "loading…" : "No devices yet. Press a to add one (a scale is \"Withings Device\")."
            canvas.text(message, at: Point(x: inner.x + 1, y: inner.y + 1), style: .dim, maxWidth: inner.width - 2)
            return
        }
        // Columns: name, type, last reading, when; the when column goes first when space is short.
        let w = inner.width - 2
        let nameW = min(22, max(12, w / 4)), typeW = min(20, max(10, w / 5)), readingW = min(30, max(12, w / 4))
        let whenX = nameW + typeW + readingW + 3
        let showWhen = w - whenX >= 18
        let x0 = inner.x + 1
        let columns = [(0, "Device"), (nameW + 1, "Type"), (nameW + typeW + 2, "Last reading")] + (showWhen ? [(whenX, "When")] : [])
        for (x, title) in columns {
            canvas.text(title, at: Point(x: x0 + x, y: inner.y), style: Styles.columnHeader)
        }
        let actionRows = 2
        let listHeight = max(1, inner.height - 1 - actionRows)
        let top = max(0, min(model.selectedIndex - listHeight + 1, model.rows.count - listHeight))
        for (offset, row) in model.rows.dropFirst(top).prefix(listHeight).enumerated() {
            let y = inner.y + 1 + offset
            let selected = top + offset == model.selectedIndex
            if selected {
                canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), character: " ", style: Styles.selectedRow)
            }
            let base = selected ? Styles.selectedText : Styles.value
            let dim = selected ? Styles.selectedText : Styles.label
            canvas.text(selected ? "›" : " ", at: Point(x: inner.x, y: y), style: selected ? Styles.selectedText : Styles.key)
            canvas.text(row.name, at: Point(x: x0, y: y), style: base, maxWidth: nameW)
            canvas.text(row.typeName, at: Point(x: x0 + nameW + 1, y: y), style: dim, maxWidth: typeW)
            canvas.text(row.lastReading, at: Point(x: x0 + nameW + typeW + 2, y: y), style: base, maxWidth: readingW)
            if showWhen {
                canvas.text(row.lastWhen, at: Point(x: x0 + whenX, y: y), style: dim, maxWidth: w - whenX)
            }
        }
        if model.rows.count > listHeight {
            let more = "\(model.selectedIndex + 1)/\(model.rows.count)"
            canvas.text(more, rightAlignedTo: inner.maxX - 1, y: inner.y, style: .dim)
        }
        if let row = model.selectedRow {
            let y = inner.maxY - 1
            if row.canSeeWeight {
                let used = canvas.text("Enter", at: Point(x: x0, y: y), style: Styles.key)
                canvas.text(" See weight of \(row.name)", at: Point(x: x0 + used, y: y), style: Styles.value, maxWidth: w - used)
            } else {
                let used = canvas.text("See weight", at: Point(x: x0, y: y), style: Style(.dim, underline: false))
                canvas.text(" unavailable: \(row.seeWeightReason ?? "")", at: Point(x: x0 + used, y: y), style: .dim, maxWidth: w - used)
            }
        }
    }
}
