import HealthViewModels
import Terminal

/// The whole frame: the tab bar, the current screen, the status bar and any overlay, or the size gate
/// when the terminal is too small. Draws state only.
@MainActor
struct DashboardView {
    static let minimumSize = Size(width: 60, height: 16)

    let dashboard: Dashboard

    func draw(on canvas: Canvas) {
        canvas.clear(.text)
        let size = canvas.size
        guard SizeGate(minimum: Self.minimumSize).check(canvas) else { return }
        let app = dashboard.app
        let content = Dashboard.contentArea(of: size)
        let screen = dashboard.current
        TabBar(dashboard: dashboard).draw(on: canvas, width: size.width)
        screen.draw(on: canvas, in: content)
        StatusBar(dashboard: dashboard).draw(on: canvas, row: size.height - 1, width: size.width)
        if let form = app.profileForm {
            ProfileFormView(model: form).draw(on: canvas, in: content)
        }
        if app.isConfirmingSignOut {
            ConfirmOverlay(question: "Sign out of \(app.user?.name ?? "hmon")?", keys: KeyMap.confirm)
                .draw(on: canvas, in: content)
        }
        if let palette = dashboard.palette {
            PaletteOverlay(palette: palette, entries: dashboard.paletteMatches).draw(on: canvas, in: content)
        }
        if dashboard.ui.showsHelp {
            // The whole screen: a modal list of keys may cover the tab and status bars.
            HelpOverlay(sections: dashboard.shownHelpSections, title: dashboard.ui.helpFilter?.title, page: dashboard.ui.helpPage)
                .draw(on: canvas, in: Rect(x: 0, y: 0, width: size.width, height: size.height))
        }
    }
}
