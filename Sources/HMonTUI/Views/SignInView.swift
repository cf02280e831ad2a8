import HealthViewModels
import Terminal

/// The sign-in (or create-account) form, centred: fields with the focused one marked, the problem in place.
@MainActor
struct SignInView {
    let model: SignInModel

    func draw(on canvas: Canvas, in area: Rect) {
        let width = min(64, area.width - 4)
        // The problem is wrapped, never cut: the box grows by the lines it needs.
        let problemLines = model.isBusy ? [] : model.problem.map { WordWrap.lines($0, width: width - 4) } ?? []
        let height = min(area.height, model.fields.count * 2 + 5 + max(1, problemLines.count))
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - height) / 2),
                        width: width, height: height)
        let inner = canvas.panel(rect, title: model.title)
        var y = inner.y
        canvas.text(model.location, at: Point(x: inner.x + 1, y: y), style: .dim, maxWidth: inner.width - 2)
        if let note = model.note {
            canvas.text(note, at: Point(x: inner.x + 1, y: y + 1), style: .accent, maxWidth: inner.width - 2)
        }
        y += 2
        let labelWidth = (model.fields.map { DisplayWidth.of($0.label) }.max() ?? 8) + 2
        let fieldX = inner.x + 2 + labelWidth
        let fieldWidth = max(8, inner.maxX - fieldX - 1)
        let spacing = inner.height >= model.fields.count * 2 + 4 ? 2 : 1
        for (i, field) in model.fields.enumerated() where y < inner.maxY - 2 {
            let focused = i == model.focusedIndex
            canvas.text(focused ? "›" : " ", at: Point(x: inner.x, y: y), style: Styles.key)
            canvas.text(field.label, at: Point(x: inner.x + 2, y: y), style: focused ? Style(.text, bold: true) : Styles.label)
            // The text around the cursor stays in view in a long entry.
            TypingField(field: field, focused: focused).draw(on: canvas, at: Point(x: fieldX, y: y), width: fieldWidth)
            y += spacing
        }
        let footer = inner.maxY - 1
        if model.isBusy {
            canvas.text("signing in…", at: Point(x: inner.x + 1, y: footer - 1), style: .accent, maxWidth: inner.width - 2)
        } else {
            let top = max(y, footer - problemLines.count)
            for (i, line) in problemLines.enumerated() where top + i < footer {
                canvas.text(line, at: Point(x: inner.x + 1, y: top + i), style: Styles.bad, maxWidth: inner.width - 2)
            }
        }
        canvas.text(model.hint, at: Point(x: inner.x + 1, y: footer), style: .dim, maxWidth: inner.width - 2)
    }
}
