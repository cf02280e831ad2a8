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

    /// "R r" as the help overlay and the status bar name the keys.
    public var keyNames: String { keys.map(\.description).joined(separator: " ") }
}

/// A key hint of the status bar: the action and its word there ("see weight").
public struct Hint: Sendable, Equatable {
    public var action: Action
    public var word: String

    public init(_ action: Action, _ word: String) {
        self.action = action
        self.word = word
    }
}

/// The key tables that belong to no one screen. Each screen keeps its own table beside its view (see
/// `DashboardScreen.bindings`); input handling looks actions up in the table that applies and the help
/// overlay is printed from the same table, so a key added anywhere is both handled and documented.
public enum KeyMap {
    /// Keys that work on every screen after sign-in; `1`…`n` follow the registered tabs.
    public static func global(tabs: [(number: Int, title: String)]) -> [Binding] {
        var table = [
            Binding(.char("q"), .ctrl("c"), does: .quit, help: "quit"),
            Binding(.char("?"), .function(1), does: .help, help: "show or hide this help"),
            Binding(.char("R"), .char("r"), does: .refresh, help: "refresh now"),
            Binding(.char(":"), does: .palette, help: "find a screen, an action or a date"),
            Binding(.tab, does: .nextTab, help: "next screen"),
            Binding(.backTab, does: .previousTab, help: "previous screen"),
        ]
        for tab in tabs where tab.number <= 9 {
            let digit = Character(String(tab.number))
            table.append(Binding(.char(digit), does: .showTab(tab.number), help: tab.title.lowercased()))
        }
        table += [
            Binding(.escape, .backspace, does: .back, help: "back"),
            Binding(.char("T"), does: .cycleTheme, help: "next colour theme"),
            Binding(.char("p"), does: .editProfile, help: "your profile: units, height, birth date, goal"),
            // `U`, not `u` (kg/lb on Weights); Ctrl-Z suspends, as in every other terminal program (the
            // terminal runs in raw mode, so it arrives as a key and the dashboard stops itself).
            Binding(.char("U"), does: .undo, help: "undo your last add, edit or delete"),
            Binding(.ctrl("z"), does: .suspend, help: "suspend (fg resumes)"),
            Binding(.char("L"), does: .signOut, help: "sign out"),
        ]
        return table
    }

    /// The keys that edit a field, as readline has them; every form and prompt lists them from here.
    /// `arrows` is false where ←/→ have another job (the profile form's choices also move its cursor).
    public static func fieldEditing(arrows: Bool = true) -> [Binding] {
        (arrows ? [Binding(.left, does: .cursorLeft, help: "cursor left"), Binding(.right, does: .cursorRight, help: "cursor right")] : [])
        + [
            Binding(.home, .ctrl("a"), does: .lineStart, help: "to the start of the field"),
            Binding(.end, .ctrl("e"), does: .lineEnd, help: "to the end of the field"),
            Binding(.backspace, does: .deleteBackward, help: "delete the character before the cursor"),
            Binding(.delete, does: .deleteForward, help: "delete the character under the cursor"),
            Binding(.ctrl("w"), does: .deleteWord, help: "delete the word before the cursor"),
            Binding(.ctrl("u"), does: .clearField, help: "delete everything before the cursor (the field, at its end)"),
        ]
    }

    /// The sign-in form: letters are typed into the fields, so only control keys act.
    public static let signIn: [Binding] = [
        Binding(.enter, does: .submit, help: "next field, or sign in"),
        Binding(.tab, .down, does: .nextField, help: "next field"),
        Binding(.backTab, .up, does: .previousField, help: "previous field"),
    ] + fieldEditing() + [
        Binding(.ctrl("n"), does: .switchForm, help: "sign in / create an account"),
        Binding(.function(1), does: .help, help: "show or hide this help"),
        Binding(.escape, .ctrl("c"), does: .quit, help: "quit"),
    ]

    /// The profile form: letters and digits are typed into its fields; Space and ←/→ change a choice.
    public static let profileForm: [Binding] = [
        Binding(.enter, does: .submit, help: "save the profile"),
        Binding(.tab, .down, does: .nextField, help: "next field"),
        Binding(.backTab, .up, does: .previousField, help: "previous field"),
        Binding(.right, does: .chooseNext, help: "next choice (Space too), or cursor right"),
        Binding(.left, does: .choosePrevious, help: "previous choice, or cursor left"),
    ] + fieldEditing(arrows: false) + [
        Binding(.escape, does: .cancel, help: "close without saving"),
        Binding(.function(1), does: .help, help: "show or hide this help"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    /// Moving through a newest-first table that loads older rows past its end (Weights, HRV): the same keys
    /// on every such screen, worded with the screen's own noun ("reading", "measurement").
    public static func pagedTable(noun: String, oldest: String) -> [Binding] {
        [
            Binding(.up, .char("k"), does: .up, help: "newer \(noun)"),
            Binding(.down, .char("j"), does: .down, help: "older \(noun) (past the end loads more)"),
            Binding(.pageUp, does: .pageUp, help: "page up"),
            Binding(.pageDown, does: .pageDown, help: "page down"),
            Binding(.ctrl("u"), does: .halfPageUp, help: "half a page up"),
            Binding(.ctrl("d"), does: .halfPageDown, help: "half a page down"),
            Binding(.home, .char("g"), does: .top, help: "newest \(noun)"),
            Binding(.end, .char("G"), does: .bottom, help: oldest),
            // Short, so the help still fits one page at 80×24; docs/dashboard.md says the rest.
            Binding(.char("/"), does: .find, help: "find a text (again: the next)"),
            Binding(.char("t"), does: .jumpToDate, help: "go to a date"),
        ]
    }

    /// The editing keys of every table screen (Weights, HRV, Energy's food log): `a` adds, `e` corrects the
    /// selected row, `d` deletes it after a question. Built here, once, so twin screens cannot drift apart.
    public static func tableEdits(add: String, noun: String) -> [Binding] {
        [
            Binding(.char("a"), does: .addReading, help: add),
            Binding(.char("e"), does: .editReading, help: "correct the selected \(noun)"),
            Binding(.char("d"), does: .deleteReading, help: "delete the selected \(noun) (asks first)"),
        ]
    }

    /// `]` and `[`: the span a table screen's chart covers, longer and shorter.
    public static func span(_ longer: String, _ shorter: String) -> [Binding] {
        [Binding(.char("]"), does: .longerSpan, help: longer), Binding(.char("["), does: .shorterSpan, help: shorter)]
    }

    /// The question `d` asks on a table screen, worded with its noun.
    public static func deleteQuestion(_ noun: String) -> [Binding] {
        [
            Binding(.char("y"), .char("Y"), does: .confirm, help: "yes, delete the \(noun)"),
            Binding(.char("n"), .char("N"), .escape, does: .cancel, help: "no, keep it"),
            Binding(.ctrl("c"), does: .quit, help: "quit"),
        ]
    }

    /// An inline prompt (a new reading, consumed energy, a device name).
    public static let prompt: [Binding] = [
        Binding(.enter, does: .submit, help: "save"),
    ] + fieldEditing() + [
        Binding(.escape, does: .cancel, help: "cancel"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    /// The command palette (`:`): letters go to its line; these keys choose and run.
    public static let palette: [Binding] = [
        Binding(.enter, does: .submit, help: "run the chosen entry"),
        Binding(.down, .ctrl("n"), does: .down, help: "next entry"),
        Binding(.up, .ctrl("p"), does: .up, help: "previous entry"),
    ] + fieldEditing() + [
        Binding(.escape, does: .cancel, help: "close"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    /// The `/` prompt: an inline prompt that also brings back the text found last.
    public static let findPrompt: [Binding] = [Binding(.up, does: .previousField, help: "the text found last, to edit")] + prompt

    /// The sign-out question.
    public static let confirm: [Binding] = [
        Binding(.char("y"), .char("Y"), does: .confirm, help: "yes, sign out"),
        Binding(.char("n"), .char("N"), .escape, does: .cancel, help: "no, stay signed in"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    /// The action a key triggers in a table; nil when the key is not bound there.
    public static func action(for key: Key, in table: [Binding]) -> Action? {
        table.first { $0.keys.contains(key) }?.action
    }

    /// A screen's own bindings first, then the shared ones minus the keys the screen took for itself.
    public static func merged(_ own: [Binding], _ shared: [Binding]) -> [Binding] {
        let taken = Set(own.flatMap(\.keys))
        return own + shared.compactMap { binding in
            let keys = binding.keys.filter { !taken.contains($0) }
            guard !keys.isEmpty else { return nil }
            var kept = binding
            kept.keys = keys
            return kept
        }
    }
}
