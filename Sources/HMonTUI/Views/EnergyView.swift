import HealthViewModels
import Terminal

/// The energy screen: Active, Resting, Consumed with bars, Net with its sign and colour, intake against
/// expenditure, how resting was worked out; or, with an incomplete profile, what is missing and how to set it.
@MainActor
struct EnergyView {
    let model: EnergyModel

    func draw(on canvas: Canvas, in area: Rect) {
        let inner = canvas.panel(area, title: "Energy · \(model.title)")
        let navigation = model.canGoForward ? "← previous day · → next day · t today" : "← previous day"
        canvas.text(navigation, rightAlignedTo: inner.maxX - 1, y: area.y, style: .dim, maxWidth: max(0, inner.width - DisplayWidth.of(model.title) - 14))
        let x0 = inner.x + 2
        var y = inner.y + (inner.height >= 18 ? 1 : 0)
        let labelW = 10, valueW = 12
        let barX = x0 + labelW + valueW + 2
        let barW = max(0, min(48, inner.maxX - barX - 2))
        for line in model.lines {
            canvas.text(line.label, at: Point(x: x0, y: y), style: Styles.label)
            canvas.text("\(line.value) \(line.unit)", rightAlignedTo: x0 + labelW + valueW, y: y, style: Style(.text, bold: true))
            canvas.bar(at: Point(x: barX, y: y), width: barW, fraction: line.fraction,
                       style: line.label == "Consumed" ? Style(.accent) : Style(.graph))
            y += 1
        }
        if model.lines.isEmpty {
            canvas.text(model.isRefreshing ? "loading…" : "", at: Point(x: x0, y: y), style: .dim)
            y += 1
        }
        canvas.horizontalLine(at: Point(x: x0, y: y), width: labelW + valueW, style: .border)
        y += 1
        if let net = model.net {
            let netStyle = Style(model.isSurplus ? .warning : .good, bold: true)
            canvas.text("Net", at: Point(x: x0, y: y), style: Style(.text, bold: true))
            canvas.text(net, rightAlignedTo: x0 + labelW + valueW, y: y, style: netStyle)
            canvas.text(model.netMeaning, at: Point(x: barX, y: y), style: netStyle, maxWidth: barW)
            y += inner.height >= 16 ? 2 : 1
            if y + 1 < inner.maxY {
                canvas.text("In", at: Point(x: x0, y: y), style: Styles.label)
                canvas.bar(at: Point(x: x0 + 5, y: y), width: barW + labelW + valueW - 3, fraction: model.intakeFraction, style: Style(.accent))
                canvas.text(model.intake, at: Point(x: x0 + barW + labelW + valueW + 4, y: y), style: .dim, maxWidth: max(0, inner.maxX - (x0 + barW + labelW + valueW + 4)))
                canvas.text("Out", at: Point(x: x0, y: y + 1), style: Styles.label)
                canvas.bar(at: Point(x: x0 + 5, y: y + 1), width: barW + labelW + valueW - 3, fraction: model.expenditureFraction, style: Style(.graph))
                canvas.text(model.expenditure, at: Point(x: x0 + barW + labelW + valueW + 4, y: y + 1), style: .dim, maxWidth: max(0, inner.maxX - (x0 + barW + labelW + valueW + 4)))
                y += inner.height >= 16 ? 3 : 2
            }
            if y < inner.maxY - 1 {
                canvas.text(model.restingNote, at: Point(x: x0, y: y), style: .dim, maxWidth: inner.width - 4)
            }
        } else if !model.missing.isEmpty {
            canvas.text("Net", at: Point(x: x0, y: y), style: Style(.text, bold: true))
            canvas.text("needs your profile", at: Point(x: barX, y: y), style: .warning)
            y += 2
            canvas.text("Resting energy needs: \(model.missing.joined(separator: ", ")).", at: Point(x: x0, y: y),
                        style: Style(.warning, bold: true), maxWidth: inner.width - 4)
            y += 1
            if let command = model.fixCommand, y < inner.maxY - 1 {
                let used = canvas.text("Set it with  ", at: Point(x: x0, y: y), style: .dim)
                canvas.text(command, at: Point(x: x0 + used, y: y), style: Styles.key, maxWidth: inner.width - 4 - used)
            }
        }
        drawFooter(on: canvas, y: inner.maxY - 1, x: inner.x + 1, width: inner.width - 2)
    }

    private func drawFooter(on canvas: Canvas, y: Int, x: Int, width: Int) {
        guard let prompt = model.prompt else { return }
        let used = canvas.text("\(prompt.label): ", at: Point(x: x, y: y), style: Style(.text, bold: true))
        let fieldW = min(14, width - used)
        canvas.fill(Rect(x: x + used, y: y, width: fieldW, height: 1), character: " ", style: Styles.input)
        let typed = canvas.text(prompt.displayText, at: Point(x: x + used, y: y), style: Styles.input, maxWidth: fieldW)
        canvas.text("▏", at: Point(x: x + used + typed, y: y), style: Style(.accent, bold: true))
        canvas.text("Enter save · Esc cancel", at: Point(x: x + used + fieldW + 2, y: y), style: .dim,
                    maxWidth: max(0, width - used - fieldW - 2))
    }
}
