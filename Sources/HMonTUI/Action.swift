import HealthViewModels

/// Something a key does on the dashboard. The key tables map keys to actions; the dashboard performs the
/// shared ones and hands the rest to the current screen. Screens declare their own actions beside them
/// (`extension Action { static let toggleUnit = Action("toggle unit") }`), so a new screen adds actions
/// without touching this file.
public struct Action: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public var description: String { name }

    // Everywhere
    public static let quit = Action("quit")
    public static let help = Action("help")
    public static let cycleTheme = Action("cycle theme")
    public static let undo = Action("undo")
    public static let suspend = Action("suspend")
    public static let signOut = Action("sign out")
    public static let refresh = Action("refresh")
    public static let back = Action("back")
    public static let nextTab = Action("next tab")
    public static let previousTab = Action("previous tab")
    /// `:`: the command palette.
    public static let palette = Action("palette")
    /// `1`…`n`: the tab with that number (from 1).
    public static func showTab(_ number: Int) -> Action { Action("tab \(number)") }

    // Lists
    public static let up = Action("up")
    public static let down = Action("down")
    public static let pageUp = Action("page up")
    public static let pageDown = Action("page down")
    public static let top = Action("top")
    public static let bottom = Action("bottom")
    public static let halfPageUp = Action("half a page up")
    public static let halfPageDown = Action("half a page down")
    /// `/` and `t` on a table screen: the status bar's prompt (`TableSeekPrompt`).
    public static let find = Action("find")
    public static let jumpToDate = Action("to a date")

    // Table screens (Weights, HRV, Energy's food log): one key does one thing on every one of them
    public static let addReading = Action("add reading")
    public static let editReading = Action("edit reading")
    public static let deleteReading = Action("delete reading")
    public static let longerSpan = Action("longer span")
    public static let shorterSpan = Action("shorter span")

    // Forms, prompts and questions
    public static let submit = Action("submit")
    public static let nextField = Action("next field")
    public static let previousField = Action("previous field")
    public static let deleteBackward = Action("delete backward")
    public static let deleteWord = Action("delete a word")
    public static let clearField = Action("clear the field")
    public static let deleteForward = Action("delete forward")
    public static let cursorLeft = Action("cursor left")
    public static let cursorRight = Action("cursor right")
    public static let lineStart = Action("start of the field")
    public static let lineEnd = Action("end of the field")
    public static let cancel = Action("cancel")
    public static let switchForm = Action("switch form")
    public static let confirm = Action("confirm")
    public static let editProfile = Action("edit profile")
    public static let chooseNext = Action("next choice")
    public static let choosePrevious = Action("previous choice")
}

extension TextEdit {
    /// The edit a field's key does (Backspace, Del, Ctrl-W, Ctrl-U, ←/→, Home/End); nil for other actions.
    /// One mapping for every form and prompt, so a field edits the same wherever it is.
    init?(_ action: Action) {
        switch action {
        case .deleteBackward: self = .deleteBackward
        case .deleteForward: self = .deleteForward
        case .deleteWord: self = .deleteWord
        case .clearField: self = .clear
        case .cursorLeft: self = .left
        case .cursorRight: self = .right
        case .lineStart: self = .home
        case .lineEnd: self = .end
        default: return nil
        }
    }
}
