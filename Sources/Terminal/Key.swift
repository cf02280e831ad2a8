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
    /// A click or a turn of the wheel, where it happened (ncurses' KEY_MOUSE; only with `Screen.Options.mouse`).
    case mouse(MouseEvent)
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
        case .mouse(let event): event.description
        case .other(let code): "key \(code)"
        }
    }
}

/// What the mouse did, in terminal cells from the top left (0, 0).
public struct MouseEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Action: Hashable, Sendable {
        /// The left button (pressed, or clicked).
        case click
        case wheelUp
        case wheelDown
    }

    public var action: Action
    public var x: Int
    public var y: Int

    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }

    public var description: String {
        switch action {
        case .click: "click"
        case .wheelUp: "wheel up"
        case .wheelDown: "wheel down"
        }
    }
}
