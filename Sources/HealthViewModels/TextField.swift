/// One line of editable text: a sign-in field or an inline prompt ("Add weight in kg: 72.4"), with a
/// cursor that ←/→, Home/End (Ctrl-A/Ctrl-E) move and that typing and deleting act at, as in readline.
/// Secret fields show bullets instead of their text.
public struct TextField: Sendable, Equatable {
    public var label: String
    public private(set) var text: String
    /// Characters before the cursor: 0 is the start, `text.count` the end (where a new field starts).
    public private(set) var cursor: Int
    public var isSecret: Bool
    /// The longest text accepted, so a stuck key cannot grow a field without end.
    public var limit: Int
    /// What else the field takes, said beside it where there is room ("a time may follow: 21:30").
    public var hint: String?

    public init(label: String, text: String = "", isSecret: Bool = false, limit: Int = 128, hint: String? = nil) {
        self.label = label
        self.hint = hint
        self.text = text
        self.cursor = text.count
        self.isSecret = isSecret
        self.limit = limit
    }

    /// What the screen shows: the text, or one bullet per character for a secret (so the cursor's place
    /// is the same in both).
    public var displayText: String { isSecret ? String(repeating: "•", count: text.count) : text }

    public var isCursorAtEnd: Bool { cursor == text.count }

    private func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: offset) }

    public mutating func insert(_ character: Character) {
        guard text.count < limit, !character.isNewline else { return }
        text.insert(character, at: index(cursor))
        cursor += 1
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        text.remove(at: index(cursor - 1))
        cursor -= 1
    }

    /// Del: the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: index(cursor))
    }

    /// Readline's Ctrl-U: everything before the cursor (the whole field when the cursor is at its end).
    public mutating func clear() {
        text.removeSubrange(text.startIndex..<index(cursor))
        cursor = 0
    }

    /// Readline's Ctrl-W: the word before the cursor and the spaces between it and the cursor.
    public mutating func deleteWordBackward() {
        var start = cursor
        let characters = Array(text)
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        text.removeSubrange(index(start)..<index(cursor))
        cursor = start
    }

    public mutating func apply(_ edit: TextEdit) {
        switch edit {
        case .deleteBackward: deleteBackward()
        case .deleteForward: deleteForward()
        case .deleteWord: deleteWordBackward()
        case .clear: clear()
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, text.count)
        case .home: cursor = 0
        case .end: cursor = text.count
        }
    }
}

/// An edit of a field from the keyboard, as readline has them: Backspace and Del, Ctrl-W (the word
/// before the cursor), Ctrl-U (all before the cursor), ←/→, Home/Ctrl-A and End/Ctrl-E.
public enum TextEdit: Sendable, Equatable {
    case deleteBackward, deleteForward, deleteWord, clear, left, right, home, end
}
