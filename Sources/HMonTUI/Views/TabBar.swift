import HealthViewModels
import Terminal

/// The top row: the name, the registered screens with their number keys, and who is signed in.
@MainActor
struct TabBar {
    let dashboard: Dashboard

    func draw(on canvas: Canvas, width: Int) {
        let app = dashboard.app
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), character: " ", style: .status)
        var x = canvas.text(" hmon ", at: Point(x: 0, y: 0), style: Style(.statusText, bold: true))
        guard app.screen != .signIn else {
            canvas.text(app.signIn.title.lowercased(), at: Point(x: x + 1, y: 0), style: Style(.statusText))
            return
        }
        for (i, tab) in dashboard.screens.enumerated() {
            let label = " \(i + 1) \(tab.title) "
            let isCurrent = tab.id == app.screen
            let style = isCurrent ? Style(.selectionText, bold: true, reverse: false) : Style(.statusText)
            if isCurrent {
                canvas.fill(Rect(x: x + 1, y: 0, width: DisplayWidth.of(label), height: 1), character: " ", style: Styles.selectedRow)
            }
            x += 1 + canvas.text(label, at: Point(x: x + 1, y: 0), style: style)
        }
        if let who = app.signedInAs {
            let room = width - x - 2
            if room > 8 {
                canvas.text(who, rightAlignedTo: width - 1, y: 0, style: Style(.statusText), maxWidth: room)
            }
        }
    }
}
