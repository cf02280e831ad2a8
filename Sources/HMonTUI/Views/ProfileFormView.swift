import HealthViewModels
import Terminal

/// The profile form over the screen (`p`, and the setup after an account is created): each field with the
/// focused one marked, choices shown as ‹ kg ›, the problem wrapped in place, never cut.
@MainActor
struct ProfileFormView {
    let model: ProfileModel

    func draw(on canvas: Canvas, in area: Rect) {
        let width = min(64, area.width - 2)
        let problemLines = model.problem.map { WordWrap.lines($0, width: width - 4) } ?? []
        let hintLines = WordWrap.lines(model.hint, width: width - 4)
        // Wrapped, never cut: at 80 columns the welcome is longer than the form is wide.
        let welcomeLines = model.isSetup ? WordWrap.lines("Welcome. These make the energy balance and BMI work; all can wait.",
                                                          width: width - 4) : []
        let wanted = model.fields.count + 3 + max(welcomeLines.count - 1, 0) + problemLines.count + hintLines.count
        let height = min(area.height, wanted + 2)
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - height) / 2),
                        width: width, height: height)
        canvas.fill(rect, character: " ", style: Style(.text))
        let inner = canvas.panel(rect, title: model.title)
        var y = inner.y
        for line in welcomeLines {
            canvas.text(line, at: Point(x: inner.x + 1, y: y), style: .dim, maxWidth: inner.width - 2)
            y += 1
        }
        y += welcomeLines.isEmpty ? 2 : 1
        let labelWidth = (model.fields.map { DisplayWidth.of($0.label) }.max() ?? 10) + 2
        let fieldX = inner.x + 2 + labelWidth
        let fieldWidth = max(6, inner.maxX - fieldX - 1)
        guard model.isLoaded else {
            canvas.text(model.isBusy ? "reading your profile…" : "", at: Point(x: inner.x + 1, y: y), style: .accent)
            return
        }
        for (i, field) in model.fields.enumerated() where y < inner.maxY {
            let focused = i == model.focusedIndex
            canvas.text(focused ? "›" : " ", at: Point(x: inner.x, y: y), style: Styles.key)
            canvas.text(field.label, at: Point(x: inner.x + 2, y: y), style: focused ? Style(.text, bold: true) : Styles.label)
            switch field.kind {
            case .choice:
                let shown = focused ? "‹ \(field.input.text) ›" : "  \(field.input.text)"
                canvas.text(shown, at: Point(x: fieldX, y: y), style: focused ? Style(.accent, bold: true) : Style(.text),
                            maxWidth: fieldWidth)
            case .text(let hint):
                let boxWidth = min(fieldWidth, 12)
                TypingField(field: field.input, focused: focused).draw(on: canvas, at: Point(x: fieldX, y: y), width: boxWidth)
                canvas.text(hint, at: Point(x: fieldX + boxWidth + 1, y: y), style: .dim,
                            maxWidth: max(0, fieldWidth - boxWidth - 1))
            }
            y += 1
        }
        y += 1
        if model.isBusy {
            canvas.text("saving…", at: Point(x: inner.x + 1, y: y), style: .accent, maxWidth: inner.width - 2)
            y += 1
        }
        for line in problemLines where y < inner.maxY {
            canvas.text(line, at: Point(x: inner.x + 1, y: y), style: Styles.bad, maxWidth: inner.width - 2)
            y += 1
        }
        for line in hintLines where y < inner.maxY {
            canvas.text(line, at: Point(x: inner.x + 1, y: y), style: .dim, maxWidth: inner.width - 2)
            y += 1
        }
    }
}
