import HealthViewModels
import Terminal

extension Dashboard {
    /// Brings the dashboard to the frame named `name` (one of `ScreenRegistry.snapshotNames`: the sign-in
    /// form, a registered screen, or the help overlay over the first screen) and draws it at `size`, after
    /// every load has been answered. Signing in must already be done for all but the sign-in form.
    public func snapshot(of name: String, size: Size) async -> GridCanvas {
        await settle()
        resize(to: size)
        if name == ScreenRegistry.helpSnapshot {
            if let first = screens.first { run(show(first.id)) }
        } else if name != ScreenID.signIn.rawValue {
            run(show(ScreenID(name)))
        }
        await settle()
        if name == ScreenRegistry.helpSnapshot && !ui.showsHelp { _ = perform(.help) }
        return frame(size: size)
    }
}
