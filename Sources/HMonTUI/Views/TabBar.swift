import HealthViewModels
import Terminal

/// The top row: the name, the registered screens with their number keys, and who is signed in.
@MainActor
struct TabBar {
    let dashboard: Dashboard

    /// Where each tab's label sits on the row, so a click finds the tab it landed on.
    func tabs() -> [(screen: any DashboardScreen, columns: Range<Int>)] {
        var x = DisplayWidth.of(Self.name)
        return dashboard.screens.map { tab in
            let start = x + 1
            x = start + DisplayWidth.of(label(of: tab))
            return (tab, start..<x)
        }
    }

    /// The screen whose tab is at column `x`, if any.
    func tab(atColumn x: Int) -> (any DashboardScreen)? {
        tabs().first { $0.columns.contains(x) }?.screen
    }

    private static let name = " hmon "

    private func label(of tab: any DashboardScreen) -> String {
        // The key that shows the tab, as `[keys]` may have remapped it (its number by default).
        let number = (dashboard.screens.firstIndex { $0 === tab } ?? 0) + 1
        let key = dashboard.tabKey(number: number)
        return key.map { " \($0) \(tab.title) " } ?? " \(tab.title) "
    }

    func draw(on canvas: Canvas, width: Int) {
        let app = dashboard.app
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), character: " ", style: .status)
        var x = canvas.text(Self.name, at: Point(x: 0, y: 0), style: Style(.statusText, bold: true))
        guard app.screen != .signIn else {
            canvas.text(app.signIn.title.lowercased(), at: Point(x: x + 1, y: 0), style: Style(.statusText))
            return
        }
        for (tab, columns) in tabs() {
            let isCurrent = tab.id == app.screen
            let style = isCurrent ? Style(.selectionText, bold: true, reverse: false) : Style(.statusText)
            if isCurrent {
                canvas.fill(Rect(x: columns.lowerBound, y: 0, width: columns.count, height: 1), character: " ", style: Styles.selectedRow)
            }
            x = columns.lowerBound + canvas.text(label(of: tab), at: Point(x: columns.lowerBound, y: 0), style: style)
        }
        if let who = app.signedInAs {
            let room = width - x - 2
            if room > 8 {
                canvas.text(who, rightAlignedTo: width - 1, y: 0, style: Style(.statusText), maxWidth: room)
            }
        }
    }
}
