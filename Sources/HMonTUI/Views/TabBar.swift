import HealthViewModels
import Terminal

/// The top row: the name, the registered screens with their number keys, and who is signed in.
@MainActor
struct TabBar {
    let dashboard: Dashboard

    /// Where each tab's label sits on a row `width` wide, and the label itself, so a click finds the tab it
    /// landed on. The widest form that fits: labels a cell apart; side by side; side by side with one space
    /// between them (eight tabs at 80 columns); and, narrower still, the other tabs by their key alone, so the
    /// tab on show is always named.
    func tabs(width: Int) -> [(screen: any DashboardScreen, label: String, columns: Range<Int>)] {
        let screens = dashboard.screens
        let full = screens.map { label(of: $0, title: true) + " " }
        let tight = screens.map { label(of: $0, title: true) }
        let keysOnly = screens.map { $0.id == dashboard.app.screen ? label(of: $0, title: true) : label(of: $0, title: false) }
        let room = width - DisplayWidth.of(Self.name)
        func span(of labels: [String], gap: Int) -> Int { labels.reduce(0) { $0 + DisplayWidth.of($1) + gap } }
        let (labels, gap) = [(full, 1), (full, 0), (tight, 0)].first { span(of: $0.0, gap: $0.1) <= room } ?? (keysOnly, 0)
        var x = DisplayWidth.of(Self.name)
        return zip(screens, labels).map { tab, label in
            let start = x + gap
            x = start + DisplayWidth.of(label)
            return (tab, label, start..<x)
        }
    }

    /// The screen whose tab is at column `x` of a row `width` wide, if any.
    func tab(atColumn x: Int, width: Int) -> (any DashboardScreen)? {
        tabs(width: width).first { $0.columns.contains(x) }?.screen
    }

    private static let name = " hmon "

    /// " 2 Weights": the key that shows the tab, as `[keys]` may have remapped it (its number by default), and
    /// the title when `title` (always for a tab with no key).
    private func label(of tab: any DashboardScreen, title: Bool) -> String {
        let number = (dashboard.screens.firstIndex { $0 === tab } ?? 0) + 1
        guard let key = dashboard.tabKey(number: number) else { return " \(tab.title)" }
        return title ? " \(key) \(tab.title)" : " \(key)"
    }

    func draw(on canvas: Canvas, width: Int) {
        let app = dashboard.app
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), character: " ", style: .status)
        var x = canvas.text(Self.name, at: Point(x: 0, y: 0), style: Style(.statusText, bold: true))
        guard app.screen != .signIn else {
            canvas.text(app.signIn.title.lowercased(), at: Point(x: x + 1, y: 0), style: Style(.statusText))
            return
        }
        for (tab, label, columns) in tabs(width: width) {
            let isCurrent = tab.id == app.screen
            let style = isCurrent ? Style(.selectionText, bold: true, reverse: false) : Style(.statusText)
            if isCurrent {
                canvas.fill(Rect(x: columns.lowerBound, y: 0, width: columns.count, height: 1), character: " ", style: Styles.selectedRow)
            }
            x = columns.lowerBound + canvas.text(label, at: Point(x: columns.lowerBound, y: 0), style: style)
        }
        if let who = app.signedInAs {
            let room = width - x - 2
            if room > 8 {
                canvas.text(who, rightAlignedTo: width - 1, y: 0, style: Style(.statusText), maxWidth: room)
            }
        }
    }
}
