import HealthViewModels
import Terminal

/// The bottom row: a spinner while data loads, the problem (in the bad colour) or the store and the
/// last update, and key hints on the right as far as they fit.
@MainActor
struct StatusBar {
    let app: AppModel
    let ui: UIState

    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    func draw(on canvas: Canvas, row y: Int, width: Int) {
        canvas.fill(Rect(x: 0, y: y, width: width, height: 1), character: " ", style: .status)
        var x = 1
        if app.isRefreshing {
            let frame = Self.spinner[ui.spinnerFrame % Self.spinner.count]
            x += canvas.text("\(frame) ", at: Point(x: x, y: y), style: Style(.accent, bold: true))
        }
        let hints = hintText(room: width / 2)
        let hintsWidth = DisplayWidth.of(hints)
        let leftRoom = max(0, width - x - hintsWidth - 2)
        if let problem = app.problem {
            canvas.text(problem, at: Point(x: x, y: y), style: Style(.bad, bold: true), maxWidth: width - x - 1)
            return   // the problem matters more than the hints
        }
        var parts: [String] = []
        if let notice = ui.notice { parts.append(notice) }
        if let updated = app.lastUpdated { parts.append(updated) }
        parts.append(app.shortLocation)
        canvas.text(parts.joined(separator: " · "), at: Point(x: x, y: y), style: Style(.statusText), maxWidth: leftRoom)
        if hintsWidth > 0 {
            drawHints(on: canvas, y: y, right: width - 1, room: width / 2)
        }
    }

    private func hintItems(room: Int) -> [(key: String, help: String)] {
        var items = KeyMap.hints(for: app.screen)
        while !items.isEmpty && items.map({ DisplayWidth.of($0.key) + DisplayWidth.of($0.help) + 3 }).reduce(0, +) > room {
            items.removeFirst()
        }
        return items
    }

    private func hintText(room: Int) -> String {
        hintItems(room: room).map { "\($0.key) \($0.help)" }.joined(separator: "  ")
    }

    private func drawHints(on canvas: Canvas, y: Int, right: Int, room: Int) {
        let items = hintItems(room: room)
        var x = right - DisplayWidth.of(hintText(room: room))
        for (i, item) in items.enumerated() {
            if i > 0 { x += 2 }
            x += canvas.text(item.key, at: Point(x: x, y: y), style: Style(.statusText, bold: true))
            x += canvas.text(" \(item.help)", at: Point(x: x, y: y), style: Style(.statusText))
        }
    }
}
