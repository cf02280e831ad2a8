import Foundation
import HealthCore
import HealthModel

/// The sign-in screen: user name and password, or, on a store with no account yet, the form that creates one.
@MainActor
public final class SignInModel {
    public enum Mode: Sendable, Equatable { case signIn, createAccount }

    public private(set) var mode: Mode = .signIn
    public private(set) var fields: [TextField] = SignInModel.signInFields
    public private(set) var focusedIndex = 0
    /// Shown in place under the form: "wrong user name or password".
    public private(set) var problem: String?
    /// True while the form is being checked or the store asked whether it has accounts.
    public var isBusy: Bool { loads.isRunning || writes.isRunning }
    /// Where the accounts live, shown under the title: a file path or a server URL.
    public let location: String
    /// A line for the form, e.g. the demo store's credentials.
    public var note: String?
    /// True after this form created the account it signed in with: the dashboard then offers the setup.
    public private(set) var createdAccount = false

    public var title: String { mode == .signIn ? "Sign in" : "Create your account" }
    public var hint: String {
        mode == .signIn
            ? "Enter to sign in · Tab moves between fields"
            : "No account in this store yet. Enter creates it · Tab moves between fields"
    }
    public var submitLabel: String { mode == .signIn ? "Sign in" : "Create account" }

    private let service: any HealthService
    private let loads = LoadSlot(model: "sign-in")
    private let writes = WriteSlot(model: "sign-in")

    public init(service: any HealthService) {
        self.service = service
        self.location = service.location
    }

    private static let signInFields = [
        TextField(label: "User name"),
        TextField(label: "Password", isSecret: true),
    ]
    private static let createFields = [
        TextField(label: "User name"),
        TextField(label: "Full name"),
        TextField(label: "Email"),
        TextField(label: "Password", isSecret: true),
        TextField(label: "Repeat password", isSecret: true),
    ]

    /// Picks the form: create an account when the store has none. `problem` stays on the form (a sign-out
    /// that could not delete the session file).
    public func prepare(problem note: String? = nil) -> Command {
        // The form starts afresh at once (never a password left from before), keeping the name, with the cursor
        // where a person types next. The store's answer comes later (seconds on a busy PostgreSQL): it changes
        // the form only when it calls for the other one, so keys typed meanwhile keep their place.
        let name = fields[0].text
        setMode(mode)
        if !name.isEmpty { prefill(userName: name) }
        let service = service
        return Command(loads.load("has accounts") {
            try await service.hasAccounts()
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let hasAccounts):
                let wanted: Mode = hasAccounts ? .signIn : .createAccount
                if wanted != mode {
                    let typed = fields[0].text
                    setMode(wanted)
                    if !typed.isEmpty { prefill(userName: typed) }
                }
                problem = note
            case .failure(let error):
                // Offer sign-in (the usual case) and say why the store could not be asked.
                problem = describe(error)
            }
            return .none
        })
    }

    public func setMode(_ newMode: Mode) {
        mode = newMode
        fields = newMode == .signIn ? Self.signInFields : Self.createFields
        focusedIndex = 0
        problem = nil
    }

    public func type(_ character: Character) {
        fields[focusedIndex].insert(character)
    }

    public func deleteBackward() { edit(.deleteBackward) }
    public func edit(_ edit: TextEdit) { fields[focusedIndex].apply(edit) }

    /// Tab and ↓, Shift-Tab and ↑: on the create-account form the field being left is checked first; a
    /// field that is wrong keeps the cursor and says why, so the person fixes it while it is in front of them.
    public func focusNext() {
        guard leaveFocusedField() else { return }
        focusedIndex = (focusedIndex + 1) % fields.count
    }

    public func focusPrevious() {
        guard leaveFocusedField() else { return }
        focusedIndex = (focusedIndex + fields.count - 1) % fields.count
    }

    /// Checks the focused field of the create-account form (an empty one is left alone: Enter says what is
    /// missing). True when the cursor may move on.
    private func leaveFocusedField() -> Bool {
        guard mode == .createAccount else { return true }
        if let wrong = Self.problem(inField: focusedIndex, of: fields) {
            problem = wrong
            return false
        }
        problem = nil
        return true
    }

    /// What is wrong with one field of the create-account form, by the same rules the store applies; nil
    /// when it is fine or still empty.
    static func problem(inField index: Int, of fields: [TextField]) -> String? {
        let text = fields[index].text
        guard !text.isEmpty else { return nil }
        do {
            switch index {
            case CreateField.name: try AccountRules.check(name: text.trimmingCharacters(in: .whitespaces))
            case CreateField.fullName: try AccountRules.check(fullName: text)
            case CreateField.email: try AccountRules.check(email: text)
            case CreateField.password: try AccountRules.check(password: text)
            case CreateField.repeatPassword:
                if text != fields[CreateField.password].text { return "the two passwords differ: type the repeat again" }
            default: break
            }
        } catch {
            return describe(error)
        }
        return nil
    }

    /// The create-account form's fields, by position.
    enum CreateField {
        static let name = 0, fullName = 1, email = 2, password = 3, repeatPassword = 4
    }

    /// Fills the user name (e.g. from `--user` or the last session) and moves to the password.
    public func prefill(userName: String) {
        fields[0] = TextField(label: fields[0].label, text: userName)
        focusedIndex = 1
    }

    /// Enter: moves to the next empty field, or checks the form when it is filled. On success `then` gets the
    /// session and says what comes next; on failure `problem` says why and the password is cleared.
    public func submit(then: @escaping @MainActor (Session) -> Command) -> Command {
        let optional: Set<String> = ["Full name", "Email"]
        if let empty = fields.indices.first(where: { fields[$0].text.isEmpty && !optional.contains(fields[$0].label) }) {
            // Enter on a filled field moves on to the next empty one; on an empty field it says what is missing.
            problem = empty == focusedIndex ? "\(fields[empty].label.lowercased()) is empty" : nil
            focusedIndex = empty
            return .none
        }
        let name = fields[0].text.trimmingCharacters(in: .whitespaces)
        let service = service
        switch mode {
        case .signIn:
            let password = fields[1].text
            return Command(writes.write("sign in \(name)") {
                try await service.signIn(name: name, password: password)
            } apply: { [weak self] result in self?.finished(result, then: then) ?? .none })
        case .createAccount:
            // Every field by the store's rules before asking it: the first wrong one gets the cursor, and
            // what was typed right stays.
            if let wrong = fields.indices.first(where: { Self.problem(inField: $0, of: fields) != nil }) {
                problem = Self.problem(inField: wrong, of: fields)
                focusedIndex = wrong
                if wrong == CreateField.repeatPassword { fields[wrong].clear() }
                return .none
            }
            let account = NewAccount(name: name, fullName: fields[1].text, email: fields[2].text, password: fields[3].text)
            return Command(writes.write("create \(name)") {
                _ = try await service.createAccount(account)
                return try await service.signIn(name: account.name, password: account.password)
            } apply: { [weak self] result in
                if case .success = result { self?.createdAccount = true }
                return self?.finished(result, then: then) ?? .none
            })
        }
    }

    /// The form after the check: the session goes on to `then`; a refusal stays on the form.
    private func finished(_ result: Result<Session, any Error>, then: @MainActor (Session) -> Command) -> Command {
        switch result {
        case .success(let session):
            problem = nil
            return then(session)
        case .failure(let error):
            problem = describe(error)
            if mode == .createAccount, case HealthError.nameTaken = error {
                // Only the name was wrong: keep the passwords, put the cursor on the name.
                focusedIndex = CreateField.name
            } else {
                clearPasswords()
            }
            return .none
        }
    }

    private func clearPasswords() {
        for i in fields.indices where fields[i].isSecret { fields[i].clear() }
        if let first = fields.firstIndex(where: \.isSecret) { focusedIndex = first }
    }
}
