import HealthViewModels
import Terminal

/// The bottom row: a spinner while data loads, the problem (in the bad colour, whole) or the store and
/// the last update, and the screen's key hints on the right as far as they fit.
@MainActor
struct StatusBar {
    let dashboard: Dashboard

    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    func draw(on canvas: Canvas, row y: Int, width: Int) {
        let app = dashboard.app
        let screen = dashboard.current
        let ui = dashboard.ui
        canvas.fill(Rect(x: 0, y: y, width: width, height: 1), character: " ", style: .status)
        if let prompt = dashboard.seekPrompt {
            drawSeek(prompt, on: canvas, row: y, width: width)
            return
        }
        var x = 1
        if screen.isRefreshing || app.isBusy {
            let frame = Self.spinner[ui.spinnerFrame % Self.spinner.count]
            x += canvas.text("\(frame) ", at: Point(x: x, y: y), style: Style(.accent, bold: true))
        }
        // A server out of reach: the screen shows what it last loaded, marked with when that stopped.
        let problems = [app.offlineText, screen.problem ?? app.problem ?? ui.settingsProblem ?? ui.themeProblem ?? app.serverNotice].compactMap { $0 }
        if !problems.isEmpty {
            let problem = problems.joined(separator: " · ")
            // The problem first, and the most important hints kept beside it (a stale screen still has keys):
            // up to a third of the row for them, the problem cut with an ellipsis only if it must be.
            let hints = hintItems(room: min(width / 3, 40))
            let hintsWidth = hints.isEmpty ? 0 : DisplayWidth.of(hintText(hints)) + 2
            canvas.text(problem, at: Point(x: x, y: y), style: Style(.bad, bold: true), maxWidth: max(0, width - x - 1 - hintsWidth))
            if !hints.isEmpty { drawHints(hints, on: canvas, y: y, right: width - 1) }
            return
        }
        let hints = hintItems(room: width / 2)
        let hintsWidth = DisplayWidth.of(hintText(hints))
        let leftRoom = max(0, width - x - hintsWidth - 2)
        var parts: [String] = []
        if let notice = screen.notice ?? ui.notice { parts.append(notice) }
        if let updated = screen.lastUpdated {
            parts.append(app.updatedText(updated))
        }
        parts.append(app.shortLocation)
        canvas.text(parts.joined(separator: " · "), at: Point(x: x, y: y), style: Style(.statusText), maxWidth: leftRoom)
        if hintsWidth > 0 {
            drawHints(hints, on: canvas, y: y, right: width - 1)
        }
    }

    /// `/` or `t`'s prompt over the whole row: "Find: text▏", then why Enter did not go, or what it takes.
    private func drawSeek(_ prompt: TableSeekPrompt, on canvas: Canvas, row y: Int, width: Int) {
        var x = 1
        x += canvas.text("\(prompt.field.label): ", at: Point(x: x, y: y), style: Style(.statusText, bold: true))
        let fieldWidth = max(1, min(20, width - x - 1))
        TypingField(field: prompt.field, focused: true).draw(on: canvas, at: Point(x: x, y: y), width: fieldWidth)
        x += fieldWidth + 2
        let room = width - x - 1
        if let problem = prompt.problem {
            canvas.text(problem, at: Point(x: x, y: y), style: Style(.bad, bold: true), maxWidth: room)
        } else if let hint = prompt.field.hint, DisplayWidth.of(hint) <= room {
            canvas.text(hint, at: Point(x: x, y: y), style: Style(.statusText))
        }
    }

    /// The screen's hints with the keys the active table gives their actions, dropping the first ones
    /// until they fit in `room`.
    private func hintItems(room: Int) -> [(key: String, word: String)] {
        let table = dashboard.activeTable
        var items: [(key: String, word: String)] = dashboard.current.hints.compactMap { hint in
            guard let key = table.first(where: { $0.action == hint.action })?.keys.first else { return nil }
            return (key.description, hint.word)
        }
        // Their width as drawn: "key word", two spaces between.
        while !items.isEmpty && items.map({ DisplayWidth.of($0.key) + DisplayWidth.of($0.word) + 3 }).reduce(0, +) - 2 > room {
            items.removeFirst()
        }
        return items
    }

    private func hintText(_ items: [(key: String, word: String)]) -> String {
        items.map { "\($0.key) \($0.word)" }.joined(separator: "  ")
    }

    private func drawHints(_ items: [(key: String, word: String)], on canvas: Canvas, y: Int, right: Int) {
        var x = right - DisplayWidth.of(hintText(items))
        for (i, item) in items.enumerated() {
            if i > 0 { x += 2 }
            x += canvas.text(item.key, at: Point(x: x, y: y), style: Style(.statusText, bold: true))
            x += canvas.text(" \(item.word)", at: Point(x: x, y: y), style: Style(.statusText))
        }
    }
}
