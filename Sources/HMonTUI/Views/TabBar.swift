import HealthViewModels
import Terminal

/// The top row: the name, the registered screens with their number keys, and who is signed in.
@MainActor
struct TabBar {
    let dashboard: Dashboard

    /// Where each tab's label sits on a row `width` wide, so a click finds the tab it landed on: a cell apart,
    /// or side by side where that is what lets every tab's name show (seven tabs at 80 columns).
    func tabs(width: Int) -> [(screen: any DashboardScreen, columns: Range<Int>)] {
        let labels = dashboard.screens.map { DisplayWidth.of(label(of: $0)) }
        let gap = DisplayWidth.of(Self.name) + labels.reduce(0) { $0 + $1 + 1 } <= width ? 1 : 0
        var x = DisplayWidth.of(Self.name)
        return zip(dashboard.screens, labels).map { tab, labelWidth in
            let start = x + gap
            x = start + labelWidth
            return (tab, start..<x)
        }
    }

    /// The screen whose tab is at column `x` of a row `width` wide, if any.
    func tab(atColumn x: Int, width: Int) -> (any DashboardScreen)? {
        tabs(width: width).first { $0.columns.contains(x) }?.screen
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
        for (tab, columns) in tabs(width: width) {
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
