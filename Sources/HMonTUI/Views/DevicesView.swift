import HealthViewModels
import Terminal

/// "You and your devices": the user card, then the devices table with the selected device's action.
/// Side by side when the terminal is wide, stacked otherwise; a compact card when it is short.
@MainActor
struct DevicesView {
    let model: DevicesModel

    func draw(on canvas: Canvas, in area: Rect) {
        let (card, devices) = Self.panels(in: area)
        drawCard(on: canvas, in: card)
        drawDevices(on: canvas, in: devices)
        // Beside the devices, under the card, where the wide layout leaves room: `hmon sources` has the rest.
        if area.width >= 150, !model.links.isEmpty {
            let rect = Rect(x: card.x, y: card.maxY, width: card.width, height: min(area.maxY - card.maxY, model.links.count + 2))
            if rect.height >= 3 { drawLinks(on: canvas, in: rect) }
        }
    }

    /// A line per link: its kind, then when something last came and what, or SILENT.
    private func drawLinks(on canvas: Canvas, in rect: Rect) {
        let inner = canvas.panel(rect, title: "Links")
        let kindW = min(18, model.links.map { DisplayWidth.of($0.kind) }.max() ?? 0)
        for (i, link) in model.links.prefix(inner.height).enumerated() {
            let y = inner.y + i
            canvas.text(link.kind, at: Point(x: inner.x + 1, y: y), style: Styles.label, maxWidth: kindW)
            canvas.text(link.state, at: Point(x: inner.x + 3 + kindW, y: y), style: link.silent ? Styles.bad : Styles.value,
                        maxWidth: max(0, inner.width - kindW - 4))
        }
    }

    /// The user card and the devices panel: side by side when the terminal is wide, stacked otherwise.
    static func panels(in area: Rect) -> (card: Rect, devices: Rect) {
        if area.width >= 150 {
            let cardWidth = 50
            return (Rect(x: area.x, y: area.y, width: cardWidth, height: min(area.height, 8)),
                    Rect(x: area.x + cardWidth, y: area.y, width: area.width - cardWidth, height: area.height))
        }
        // The full card only on a tall terminal: at 80×24 its three extra rows serve the devices better.
        let cardHeight = area.height >= 30 ? 8 : 5
        return (Rect(x: area.x, y: area.y, width: area.width, height: cardHeight),
                Rect(x: area.x, y: area.y + cardHeight, width: area.width, height: area.height - cardHeight))
    }

    /// Where the device list sits in the devices panel's inside: its first row, how many rows it shows,
    /// which device is at the top, and whether the selected device's latest readings fit below.
    static func list(inside inner: Rect, model: DevicesModel) -> (firstRowY: Int, height: Int, top: Int, showsRecent: Bool) {
        let actionRows = 2
        // With room to spare, the list takes what it needs and the selected device's readings go below.
        let spare = inner.height - 1 - actionRows - model.rows.count
        let showsRecent = spare >= 4 && !model.recent.isEmpty
        let height = showsRecent ? model.rows.count : max(1, inner.height - 1 - actionRows)
        let top = max(0, min(model.selectedIndex - height + 1, model.rows.count - height))
        return (inner.y + 1, height, top, showsRecent)
    }

    /// The index of the device drawn at screen row `y` of `area`, if one is there.
    static func device(atY y: Int, in area: Rect, model: DevicesModel) -> Int? {
        let inner = panels(in: area).devices.inset(1)
        guard inner.height >= 3, !model.rows.isEmpty else { return nil }
        let list = list(inside: inner, model: model)
        guard y >= list.firstRowY, y < list.firstRowY + list.height else { return nil }
        let index = list.top + y - list.firstRowY
        return index < model.rows.count ? index : nil
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
            // Three rows of two: who, how to reach them (and the id), when; labels aligned per column.
            let byLabel = Dictionary(model.userLines.map { ($0.label, $0) }, uniquingKeysWith: { a, _ in a })
            let grid = [["Name", "Full name"], ["Email", "ID"], ["Created", "Modified"]].map { $0.compactMap { byLabel[$0] } }
            let half = inner.width / 2
            for column in 0..<2 {
                let labelW = grid.compactMap { $0.indices.contains(column) ? DisplayWidth.of($0[column].label) : nil }.max() ?? 0
                for (r, row) in grid.enumerated() where r < inner.height && row.indices.contains(column) {
                    // An id cut short is of no use to copy: it shows whole or not at all (`hmon user list` has it).
                    if row[column].label == "ID" && DisplayWidth.of(row[column].value) > half - labelW - 2 { continue }
                    let x = inner.x + 1 + column * half
                    canvas.text(row[column].label, at: Point(x: x, y: inner.y + r), style: Styles.label)
                    canvas.text(row[column].value, at: Point(x: x + labelW + 1, y: inner.y + r), style: Styles.value,
                                maxWidth: max(0, half - labelW - 2))
                }
            }
        }
    }

    private func drawDevices(on canvas: Canvas, in rect: Rect) {
        let inner = canvas.panel(rect, title: "Devices")
        guard inner.height >= 3 else { return }
        guard !model.rows.isEmpty else {
            let message = model.isRefreshing ? "loading…" : "No devices yet. Press a to add one: a bathroom scale is a \"Scale\"."
            canvas.text(message, at: Point(x: inner.x + 1, y: inner.y + 1), style: .dim, maxWidth: inner.width - 2)
            return
        }
        // Columns by priority: name, last reading, when, then type; the type goes first when space is short
        // (the name usually says it), and a header is cut with an ellipsis to its column, never run into the next.
        let w = inner.width - 2
        let nameW = min(24, max(6, model.rows.map { DisplayWidth.of($0.name) }.max() ?? 6))
        let fullTypeW = min(18, max(4, model.rows.map { DisplayWidth.of($0.typeName) }.max() ?? 4))
        let fullWhen = model.rows.map { DisplayWidth.of("\($0.lastWhen) · \($0.lastAge)") }.max() ?? 0
        let ageWhen = max(4, model.rows.map { DisplayWidth.of($0.lastAge) }.max() ?? 4)
        let showType = nameW + fullTypeW + 14 + ageWhen + 6 <= w
        let typeW = showType ? fullTypeW : 0
        let readingX = nameW + 2 + (showType ? typeW + 2 : 0)
        let rest = w - readingX - 2
        let whenW = rest - fullWhen >= 20 ? fullWhen : ageWhen
        let readingW = max(8, rest - whenW)
        let whenX = readingX + readingW + 2
        let showWhen = whenX + 4 <= w
        let x0 = inner.x + 1
        var columns = [(0, nameW, "Device")]
        if showType { columns.append((nameW + 2, typeW, "Type")) }
        columns.append((readingX, readingW, "Last reading"))
        if showWhen { columns.append((whenX, w - whenX, "When")) }
        for (x, width, title) in columns {
            canvas.text(title, at: Point(x: x0 + x, y: inner.y), style: Styles.columnHeader, maxWidth: width)
        }
        let actionRows = 2
        let (_, listHeight, top, showsRecent) = Self.list(inside: inner, model: model)
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
            if showType { canvas.text(row.typeName, at: Point(x: x0 + nameW + 2, y: y), style: dim, maxWidth: typeW) }
            canvas.text(row.lastReading, at: Point(x: x0 + readingX, y: y), style: base, maxWidth: readingW)
            if showWhen {
                // The most that fits, most important last to go: how long ago, then today's count (is the
                // phone still sending?), then the date.
                let age = row.lastAge.isEmpty ? [] : [row.lastAge]
                let candidates = [([row.lastWhen] + age + [row.today]), (age + [row.today]), age]
                let when = candidates.map { $0.joined(separator: " · ") }.first { DisplayWidth.of($0) <= w - whenX } ?? row.lastAge
                canvas.text(when, at: Point(x: x0 + whenX, y: y), style: dim, maxWidth: w - whenX)
            }
        }
        if model.rows.count > listHeight {
            let more = "\(model.selectedIndex + 1)/\(model.rows.count)"
            canvas.text(more, rightAlignedTo: inner.maxX - 1, y: inner.y, style: .dim)
        }
        if showsRecent, let row = model.selectedRow {
            var y = inner.y + 1 + listHeight
            canvas.horizontalLine(at: Point(x: inner.x, y: y), width: inner.width, style: .border)
            canvas.text(" Latest readings of \(row.name) ", at: Point(x: inner.x + 2, y: y), style: Styles.columnHeader,
                        maxWidth: inner.width - 4)
            y += 1
            for line in model.recent where y < inner.maxY - actionRows {
                let used = canvas.text(line.when, at: Point(x: x0, y: y), style: Styles.label)
                canvas.text(line.values, at: Point(x: x0 + used + 2, y: y), style: Styles.value, maxWidth: w - used - 2)
                y += 1
            }
        }
        if let field = model.renaming?.field {
            PromptLine(field: field).draw(on: canvas, x: x0, y: inner.maxY - 1, width: w)
        } else if let question = model.deleting?.question {
            canvas.text(question, at: Point(x: x0, y: inner.maxY - 1), style: Style(.text, bold: true), maxWidth: w)
        } else if let row = model.selectedRow {
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
