import Foundation
import HealthViewModels
import Terminal

/// The sign-in form (or, on a store with no account, the form that creates one). Not a tab: the dashboard
/// shows it until someone is signed in.
@MainActor
final class SignInScreen: DashboardScreen {
    let id = ScreenID.signIn
    /// "Sign in" or "Create your account", as the form says, so the top bar never contradicts it.
    var title: String { model.title }
    private let app: AppModel
    private var model: SignInModel { app.signIn }

    init(app: AppModel) { self.app = app }

    var bindings: [Binding] { KeyMap.signIn }
    /// The hints name what Enter and Ctrl-N do on the form that is showing.
    var hints: [Hint] {
        let creating = model.mode == .createAccount
        return [Hint(.submit, creating ? "create account" : "sign in"), Hint(.nextField, "next field"),
                Hint(.switchForm, creating ? "sign in instead" : "new account"), Hint(.quit, "quit")]
    }
    var isTyping: Bool { true }
    var isRefreshing: Bool { model.isBusy }
    /// Shown in place on the form, not in the status bar.
    var problem: String? { nil }
    var lastUpdated: Date? { nil }

    func open() -> Command? { model.prepare() }
    func refresh() -> Command { .none }

    func perform(_ action: Action) -> Command {
        switch action {
        case .submit: return app.submitSignIn()
        case .nextField: model.focusNext()
        case .previousField: model.focusPrevious()
        case .switchForm: model.setMode(model.mode == .signIn ? .createAccount : .signIn)
        default: if let edit = TextEdit(action) { model.edit(edit) }
        }
        return .none
    }

    func type(_ character: Character) { model.type(character) }

    func draw(on canvas: Canvas, in area: Rect) {
        SignInView(model: model).draw(on: canvas, in: area)
    }
}
