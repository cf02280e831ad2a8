/// A decoded key press.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// A printable character (any Unicode scalar the terminal sent).
    case char(Character)
    /// Ctrl plus a letter, lower case: `.ctrl("c")`.
    case ctrl(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, escape, tab, backTab, backspace, delete, insert
    case function(Int)
    /// The terminal was resized (ncurses' KEY_RESIZE).
    case resize
    /// Any other key code ncurses reported.
    case other(Int32)

    /// How the help overlay names the key: "R", "Ctrl-C", "↑", "PgDn", "F1".
    public var description: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .ctrl(let c): "Ctrl-\(String(c).uppercased())"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .insert: "Ins"
        case .function(let n): "F\(n)"
        case .resize: "resize"
        case .other(let code): "key \(code)"
        }
    }
}
