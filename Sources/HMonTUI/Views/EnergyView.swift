import HealthViewModels
import Terminal
import CheckedNumbers

/// The energy screen: Active and Resting (what was spent), Spent against Consumed on one scale,
/// Net with its sign and colour, and how resting was worked out; with an incomplete profile, what is
/// missing and the command that sets it, in place of the numbers that cannot be known.
@MainActor
struct EnergyView {
    let model: EnergyModel

    private let labelW = 10, valueW = 12

    func draw(on canvas: Canvas, in area: Rect) {
        let inner = canvas.panel(area, title: "Energy · \(model.title)")
        let navigation = model.canGoForward ? " ← → days · t today " : " ← previous day "
        let room = inner.width - DisplayWidth.of(model.title) - 16
        if room >= DisplayWidth.of(navigation) {
            canvas.text(navigation, rightAlignedTo: inner.maxX - 1, y: area.y, style: .dim)
        }
        let x0 = inner.x + 2
        let barX = x0 + labelW + valueW + 2
        let column = Self.foodLogColumn(in: inner)
        let barW = max(0, min(50, (column?.x ?? inner.maxX) - barX - 2))
        if let column { drawFoodLog(on: canvas, in: column) }
        // Text under the figures stays left of the food log.
        let textW = (column.map { $0.x - 2 } ?? inner.maxX - 2) - x0
        var y = inner.y + (inner.height >= 16 ? 1 : 0)

        if model.lines.isEmpty {
            canvas.text(model.isRefreshing ? "loading…" : "", at: Point(x: x0, y: y), style: .dim)
            drawPrompt(on: canvas, in: inner)
            return
        }
        let consumed = model.lines.last { $0.label == "Consumed" }
        for line in model.lines where line.label != "Consumed" {
            drawLine(line, on: canvas, x: x0, y: y, barX: barX, barW: barW, style: Style(.graph), bold: false)
            y += 1
        }
        if let spent = model.spent {
            drawLine(spent, on: canvas, x: x0, y: y, barX: barX, barW: barW, style: Style(.graph), bold: true)
            y += 1
        }
        if let consumed {
            drawLine(consumed, on: canvas, x: x0, y: y, barX: barX, barW: barW, style: Style(.accent), bold: true)
            y += 1
        }
        canvas.horizontalLine(at: Point(x: x0, y: y), width: labelW + valueW, style: .border)
        y += 1
        if let net = model.net {
            let netStyle = Style(model.isSurplus ? .warning : .good, bold: true)
            canvas.text("Net", at: Point(x: x0, y: y), style: Style(.text, bold: true))
            canvas.text(net, rightAlignedTo: x0 + labelW + valueW, y: y, style: netStyle)
            canvas.text(model.netMeaning, at: Point(x: barX, y: y), style: netStyle, maxWidth: barW)
            y += 2
            if y < inner.maxY - 1 {
                canvas.text(model.restingNote, at: Point(x: x0, y: y), style: .dim, maxWidth: textW)
                y += 1
            }
            if y < inner.maxY - 1, !model.restingDetail.isEmpty {
                canvas.text(model.restingDetail, at: Point(x: x0, y: y), style: .dim, maxWidth: textW)
                y += 1
            }
            if column == nil, model.isBrowsingFoodLog {
                // Too narrow for the food log beside the figures: it takes the week's place while in use.
                let top = inner.maxY - 1 - y >= 9 ? y + 1 : y
                drawFoodLog(on: canvas, in: Rect(x: x0, y: top, width: textW, height: inner.maxY - top), titleRow: false)
                drawPrompt(on: canvas, in: inner)
                return
            }
            y = drawWeek(on: canvas, x: x0, y: y, bottom: inner.maxY - 1, barX: barX, barW: barW)
            if let learned = model.learnedExpenditure {
                // Wrapped rather than cut when the food log narrows the figures' side.
                // Broken between its " · " parts where it can, so a short screen shows whole phrases
                // ("Learned from your data: 8,472 kJ/day") rather than one cut mid-phrase.
                for (i, line) in Self.phraseLines(learned, width: textW).enumerated() where y + 1 + i < inner.maxY - 1 {
                    canvas.text(line, at: Point(x: x0, y: y + 1 + i), style: .dim, maxWidth: textW)
                }
            }
        } else {
            canvas.text("Net", at: Point(x: x0, y: y), style: Style(.text, bold: true))
            canvas.text("—", rightAlignedTo: x0 + labelW + valueW, y: y, style: .dim)
            canvas.text("needs resting energy", at: Point(x: barX, y: y), style: .warning, maxWidth: barW)
            y += 2
            if !model.missing.isEmpty, y < inner.maxY - 1 {
                canvas.text("Resting energy needs your \(model.missing.joined(separator: ", ")).", at: Point(x: x0, y: y),
                            style: Style(.warning, bold: true), maxWidth: textW)
                y += 1
            }
            // What fixes it from here: p for the profile; a weigh-in only helps today (a past day keeps its gap).
            if model.missing.contains(where: { $0 != "weight" }), y < inner.maxY - 1 {
                let used = canvas.text("Press ", at: Point(x: x0, y: y), style: .dim)
                let key = canvas.text("p", at: Point(x: x0 + used, y: y), style: Styles.key)
                canvas.text(" to fill in your profile.", at: Point(x: x0 + used + key, y: y), style: .dim,
                            maxWidth: textW - used - key)
                y += 1
            }
            if model.missing.contains("weight"), model.isToday, y < inner.maxY - 1 {
                canvas.text("A weigh-in today (Weights, a) gives the weight.", at: Point(x: x0, y: y), style: .dim,
                            maxWidth: textW)
            }
        }
        drawPrompt(on: canvas, in: inner)
    }

    /// The net of the last seven days, one row each, when there is room below the figures. Returns the row
    /// under what it drew.
    private func drawWeek(on canvas: Canvas, x: Int, y top: Int, bottom: Int, barX: Int, barW: Int) -> Int {
        // A blank line above when there is room for it; the title and the seven days must fit.
        let y = bottom - top >= 9 ? top + 1 : top
        guard model.week.count == 7, bottom - y >= 8 else { return top }
        canvas.text("Net, last 7 days", at: Point(x: x, y: y), style: Styles.columnHeader)
        // Diverging bars around a zero axis: deficits grow left, surpluses right, so the side reads
        // without colour too.
        let half = max(1, (barW - 1) / 2)
        let axis = barX + half
        // Room after the longest surplus bar for its note ("so far ◂"), so a surplus day keeps its marker;
        // both sides are scaled alike so a deficit and a surplus of one size still look one size.
        let noteRoom = model.week.contains(where: \.isPartial) ? 9 : 2
        let barHalf = max(1, half - noteRoom)
        if barW >= 3 {
            canvas.text("deficit", rightAlignedTo: axis, y: y, style: Styles.label)
            canvas.text("surplus", at: Point(x: axis + 2, y: y), style: Styles.label)
        }
        for (i, day) in model.week.enumerated() {
            let row = y + 1 + i
            let style = day.isSelected ? Style(.text, bold: true) : Styles.label
            canvas.text(day.label, at: Point(x: x, y: row), style: style)
            let valueStyle = day.isLogged ? style : Styles.label
            if day.isLogged {
                canvas.text("\(day.net) \(model.unit.rawValue)", rightAlignedTo: x + labelW + valueW, y: row, style: valueStyle)
            } else {
                canvas.text(day.net, rightAlignedTo: x + labelW + valueW, y: row, style: valueStyle)
            }
            guard barW >= 3 else { continue }
            canvas.text("│", at: Point(x: axis, y: row), style: .border)
            let width = Int(rounding: Double(barHalf) * day.fraction)
            var end = axis + 1
            if width > 0 {
                if day.isSurplus {
                    canvas.fill(Rect(x: axis + 1, y: row, width: width, height: 1), character: "▆", style: Styles.bad)
                    end = axis + 1 + width
                } else {
                    canvas.fill(Rect(x: axis - width, y: row, width: width, height: 1), character: "▆", style: Styles.good)
                }
            }
            var notes: [String] = []
            if day.isPartial { notes.append("so far") }
            if day.isSelected { notes.append("◂") }
            if !notes.isEmpty {
                canvas.text(notes.joined(separator: " "), at: Point(x: end + 1, y: row), style: Styles.key,
                            maxWidth: max(0, barX + barW - end))
            }
        }
        return y + 8
    }

    private func drawLine(_ line: EnergyLine, on canvas: Canvas, x: Int, y: Int, barX: Int, barW: Int, style: Style, bold: Bool) {
        canvas.text(line.label, at: Point(x: x, y: y), style: bold ? Style(.text, bold: true) : Styles.label)
        canvas.text("\(line.value) \(line.unit)", rightAlignedTo: x + labelW + valueW, y: y, style: Style(.text, bold: true))
        canvas.bar(at: Point(x: barX, y: y), width: barW, fraction: line.fraction, style: style)
    }

    private func drawPrompt(on canvas: Canvas, in inner: Rect) {
        if let question = model.deleting?.question {
            let y = inner.maxY - 1
            canvas.fill(Rect(x: inner.x + 1, y: y, width: inner.width - 2, height: 1), character: " ", style: .text)
            canvas.text(question, at: Point(x: inner.x + 1, y: y), style: Style(.text, bold: true), maxWidth: inner.width - 2)
            return
        }
        guard let prompt = model.prompt else { return }
        PromptLine(field: prompt).draw(on: canvas, x: inner.x + 1, y: inner.maxY - 1, width: inner.width - 2)
        // What was eaten lately, matching what is typed, just above the prompt: ↑/↓ pick one.
        let shown = model.suggestions.prefix(max(0, inner.height - 2))
        for (i, suggestion) in shown.enumerated() {
            let y = inner.maxY - 1 - shown.count + i
            let picked = model.suggestionIndex == i
            canvas.fill(Rect(x: inner.x + 1, y: y, width: inner.width - 2, height: 1), character: " ",
                        style: picked ? Styles.selectedRow : Style(.text))
            canvas.text((picked ? "› " : "  ") + suggestion, at: Point(x: inner.x + 1, y: y),
                        style: picked ? Styles.selectedText : Styles.label, maxWidth: inner.width - 2)
        }
    }

    /// `text`'s " · "-separated phrases packed into lines of `width`, a phrase wider than a line wrapped by words.
    nonisolated static func phraseLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for phrase in text.components(separatedBy: " · ") {
            if let last = lines.last, DisplayWidth.of(last) + 3 + DisplayWidth.of(phrase) <= width {
                lines[lines.count - 1] = last + " · " + phrase
            } else {
                lines += WordWrap.lines(phrase, width: width)
            }
        }
        return lines
    }

    /// Where the day's food log goes: a column right of the figures when the screen is wide enough.
    /// Right of full-width bars when there is room for it; from 90 columns it takes 30 and the bars give way.
    static func foodLogColumn(in inner: Rect) -> Rect? {
        let besideFullBars = inner.x + 78
        let x = inner.maxX - 1 - besideFullBars >= 30 ? besideFullBars : inner.maxX - 1 - 30
        guard inner.width >= 88 else { return nil }
        return Rect(x: x, y: inner.y, width: inner.maxX - 1 - x, height: inner.height)
    }

    /// The day's entries, oldest first: time, what was eaten, energy; the newest stay in view, and the
    /// selected one (`e`, `d`) is marked and kept in view.
    private func drawFoodLog(on canvas: Canvas, in column: Rect, titleRow: Bool = true) {
        var y = column.y + (titleRow && column.height >= 16 ? 1 : 0)
        canvas.text("Food log", at: Point(x: column.x, y: y), style: Styles.columnHeader)
        if !titleRow {
            canvas.text("↑↓ e d", rightAlignedTo: column.maxX, y: y, style: .dim)
        }
        y += 1
        guard !model.foodEntries.isEmpty else {
            canvas.text(model.isToday ? "nothing yet: a logs a meal" : "nothing logged", at: Point(x: column.x, y: y),
                        style: .dim, maxWidth: column.width)
            return
        }
        let energyW = model.foodEntries.map { DisplayWidth.of($0.energy) }.max() ?? 8
        let rows = max(0, column.maxY - 1 - y)
        let count = model.foodEntries.count
        // The newest page, unless the selection went above it.
        var first = max(0, count - rows)
        if let selected = model.selectedEntry, model.isBrowsingFoodLog, selected < first { first = selected }
        let shown = first..<min(count, first + rows)
        if first > 0, titleRow {
            canvas.text("\(first) earlier", rightAlignedTo: column.maxX, y: y - 1, style: .dim)
        }
        for index in shown {
            let entry = model.foodEntries[index]
            let picked = model.isBrowsingFoodLog && index == model.selectedEntry
            if picked {
                canvas.fill(Rect(x: column.x, y: y, width: column.width, height: 1), character: " ", style: Styles.selectedRow)
                // A mark that reads without colour too, in the gap left of the column.
                canvas.text("›", at: Point(x: column.x - 1, y: y), style: Styles.key)
            }
            canvas.text(entry.time, at: Point(x: column.x, y: y), style: picked ? Styles.selectedText : Styles.label)
            let whatWidth = max(0, column.width - 7 - energyW - 1)
            let used = canvas.text(entry.what, at: Point(x: column.x + 7, y: y), style: picked ? Styles.selectedText : Styles.value,
                                   maxWidth: whatWidth)
            // Where a pushed meal came from, after it, where the row has room.
            if !entry.source.isEmpty, whatWidth - used > 4 {
                canvas.text(" · " + entry.source, at: Point(x: column.x + 7 + used, y: y), style: picked ? Styles.selectedText : .dim,
                            maxWidth: whatWidth - used)
            }
            canvas.text(entry.energy, rightAlignedTo: column.maxX, y: y, style: picked ? Styles.selectedText : Style(.text, bold: true))
            y += 1
        }
    }
}

/// An inline prompt on one row: "New weight in kg: [72.4▏      ]  Enter save · Esc cancel".
struct PromptLine {
    let field: TextField

    func draw(on canvas: Canvas, x: Int, y: Int, width: Int) {
        canvas.fill(Rect(x: x, y: y, width: width, height: 1), character: " ", style: .text)
        let used = canvas.text("\(field.label): ", at: Point(x: x, y: y), style: Style(.text, bold: true), maxWidth: width)
        // Room for a number and a time after it ("72.4 yesterday 21:30"), where the prompt takes one.
        let fieldW = max(0, min(field.hint == nil ? 14 : 22, width - used))
        TypingField(field: field, focused: true).draw(on: canvas, at: Point(x: x + used, y: y), width: fieldW)
        let rest = width - used - fieldW - 2
        if rest > 0 {
            let keys = "Enter save · Esc cancel"
            let hint = field.hint.map { keys + " · " + $0 } ?? keys
            canvas.text(DisplayWidth.of(hint) <= rest ? hint : keys, at: Point(x: x + used + fieldW + 2, y: y), style: .dim, maxWidth: rest)
        }
    }
}
