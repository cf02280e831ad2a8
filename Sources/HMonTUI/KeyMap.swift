import HealthViewModels
import Terminal

/// One key binding: the keys, what they do, and the line the help overlay prints for them.
public struct Binding: Sendable, Equatable {
    public var keys: [Key]
    public var action: Action
    public var help: String

    public init(_ keys: Key..., does action: Action, help: String) {
        self.keys = keys
        self.action = action
        self.help = help
    }

    /// "R, r" as the help overlay and the status bar name the keys.
    public var keyNames: String { keys.map(\.description).joined(separator: " ") }
}

/// The one table of key bindings. Input handling looks actions up here and the help overlay is printed
/// from it, so a key added here is both handled and documented.
public enum KeyMap {
    /// Keys that work on every screen after sign-in.
    public static let global: [Binding] = [
        Binding(.char("q"), .ctrl("c"), does: .quit, help: "quit"),
        Binding(.char("?"), .function(1), does: .help, help: "show or hide this help"),
        Binding(.char("R"), .char("r"), does: .refresh, help: "refresh now"),
        Binding(.tab, does: .nextTab, help: "next screen"),
        Binding(.backTab, does: .previousTab, help: "previous screen"),
        Binding(.char("1"), does: .showDevices, help: "you and your devices"),
        Binding(.char("2"), does: .showWeights, help: "weights"),
        Binding(.char("3"), does: .showEnergy, help: "energy"),
        Binding(.escape, .backspace, does: .back, help: "back"),
        Binding(.char("T"), does: .cycleTheme, help: "next colour theme"),
    ]

    public static let devices: [Binding] = [
        Binding(.up, .char("k"), does: .up, help: "previous device"),
        Binding(.down, .char("j"), does: .down, help: "next device"),
        Binding(.enter, does: .open, help: "see weight (devices that weigh)"),
        Binding(.char("a"), does: .addDevice, help: "add a device"),
        Binding(.char("L"), does: .signOut, help: "sign out"),
    ]

    public static let weights: [Binding] = [
        Binding(.up, .char("k"), does: .up, help: "newer reading"),
        Binding(.down, .char("j"), does: .down, help: "older reading (past the end loads more)"),
        Binding(.pageUp, does: .pageUp, help: "page up"),
        Binding(.pageDown, does: .pageDown, help: "page down"),
        Binding(.home, .char("g"), does: .top, help: "newest reading"),
        Binding(.end, .char("G"), does: .bottom, help: "oldest loaded reading"),
        Binding(.char("u"), does: .toggleUnit, help: "switch kg / lb"),
        Binding(.char("a"), does: .addReading, help: "add a reading"),
    ]

    public static let energy: [Binding] = [
        Binding(.left, .char("h"), does: .previousDay, help: "previous day"),
        Binding(.right, .char("l"), does: .nextDay, help: "next day"),
        Binding(.char("t"), does: .today, help: "back to today"),
        Binding(.char("a"), does: .logEnergy, help: "log consumed energy"),
    ]

    /// The sign-in form: letters are typed into the fields, so only control keys act.
    public static let signIn: [Binding] = [
        Binding(.enter, does: .submit, help: "next field, or sign in"),
        Binding(.tab, .down, does: .nextField, help: "next field"),
        Binding(.backTab, .up, does: .previousField, help: "previous field"),
        Binding(.backspace, does: .deleteBackward, help: "delete a character"),
        Binding(.ctrl("n"), does: .switchForm, help: "sign in / create an account"),
        Binding(.function(1), does: .help, help: "show or hide this help"),
        Binding(.escape, .ctrl("c"), does: .quit, help: "quit"),
    ]

    /// An inline prompt (a new reading, consumed energy, a device name).
    public static let prompt: [Binding] = [
        Binding(.enter, does: .submit, help: "save"),
        Binding(.backspace, does: .deleteBackward, help: "delete a character"),
        Binding(.escape, does: .cancel, help: "cancel"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    /// The sign-out question.
    public static let confirm: [Binding] = [
        Binding(.char("y"), .char("Y"), does: .confirm, help: "yes, sign out"),
        Binding(.char("n"), .char("N"), .escape, does: .cancel, help: "no, stay signed in"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    /// The bindings a screen responds to, its own first, then the global ones it does not shadow.
    public static func bindings(for screen: ScreenID) -> [Binding] {
        switch screen {
        case .signIn: return signIn
        case .devices: return merged(devices, global)
        case .weights: return merged(weights, global)
        case .energy: return merged(energy, global)
        }
    }

    /// The action a key triggers in a table; nil when the key is not bound there.
    public static func action(for key: Key, in table: [Binding]) -> Action? {
        table.first { $0.keys.contains(key) }?.action
    }

    private static func merged(_ own: [Binding], _ shared: [Binding]) -> [Binding] {
        let taken = Set(own.flatMap(\.keys))
        return own + shared.compactMap { binding in
            let keys = binding.keys.filter { !taken.contains($0) }
            guard !keys.isEmpty else { return nil }
            var kept = binding
            kept.keys = keys
            return kept
        }
    }

    /// The short hints the status bar shows for a screen (the first key of each).
    public static func hints(for screen: ScreenID) -> [(key: String, help: String)] {
        let wanted: [Action] = switch screen {
        case .signIn: [.submit, .nextField, .switchForm, .quit]
        case .devices: [.open, .addDevice, .refresh, .help, .quit]
        case .weights: [.addReading, .toggleUnit, .refresh, .help, .quit]
        case .energy: [.previousDay, .nextDay, .logEnergy, .refresh, .help, .quit]
        }
        let table = bindings(for: screen)
        return wanted.compactMap { action in
            guard let binding = table.first(where: { $0.action == action }), let key = binding.keys.first else { return nil }
            return (key.description, shortHelp[action] ?? binding.help)
        }
    }

    private static let shortHelp: [Action: String] = [
        .open: "see weight", .addDevice: "add device", .refresh: "refresh", .help: "help", .quit: "quit",
        .addReading: "add", .toggleUnit: "kg/lb", .previousDay: "day", .nextDay: "day", .logEnergy: "log food",
        .submit: "sign in", .nextField: "next field", .switchForm: "new account",
    ]
}
