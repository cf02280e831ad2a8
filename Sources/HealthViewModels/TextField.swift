/// One line of editable text: a sign-in field or an inline prompt ("Add weight in kg: 72.4").
/// Secret fields show bullets instead of their text.
public struct TextField: Sendable, Equatable {
    public var label: String
    public private(set) var text: String
    public var isSecret: Bool
    /// The longest text accepted, so a stuck key cannot grow a field without end.
    public var limit: Int

    public init(label: String, text: String = "", isSecret: Bool = false, limit: Int = 128) {
        self.label = label
        self.text = text
        self.isSecret = isSecret
        self.limit = limit
    }

    /// What the screen shows: the text, or one bullet per character for a secret.
    public var displayText: String { isSecret ? String(repeating: "•", count: text.count) : text }

    public mutating func insert(_ character: Character) {
        guard text.count < limit, !character.isNewline else { return }
        text.append(character)
    }

    public mutating func deleteBackward() {
        if !text.isEmpty { text.removeLast() }
    }

    public mutating func clear() { text = "" }

    /// Readline's Ctrl-W: the word before the end and the spaces after it.
    public mutating func deleteWordBackward() {
        while text.last?.isWhitespace == true { text.removeLast() }
        while let last = text.last, !last.isWhitespace { text.removeLast() }
    }

    public mutating func apply(_ edit: TextEdit) {
        switch edit {
        case .deleteBackward: deleteBackward()
        case .deleteWord: deleteWordBackward()
        case .clear: clear()
        }
    }
}

/// An edit of a field from the keyboard: Backspace, Ctrl-W and Ctrl-U as readline has them (the text is
/// typed at its end, so Ctrl-U, "to the start of the line", clears it).
public enum TextEdit: Sendable, Equatable {
    case deleteBackward, deleteWord, clear
}
