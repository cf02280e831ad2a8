import Terminal

/// What the help overlay is narrowed to: letters typed while it shows keep the bindings whose words,
/// action or keys hold them; `@` then a key keeps what that key does.
public enum HelpFilter: Sendable, Equatable {
    case words(String)
    /// `@` was typed: the next key is the one to look up.
    case awaitingKey
    case key(Key)

    /// The bindings of `sections` the filter keeps, sections left empty dropped.
    func narrowed(_ sections: [(title: String, bindings: [Binding])]) -> [(title: String, bindings: [Binding])] {
        sections.compactMap { section in
            let kept = section.bindings.filter(keeps)
            return kept.isEmpty ? nil : (section.title, kept)
        }
    }

    private func keeps(_ binding: Binding) -> Bool {
        switch self {
        case .words(let typed):
            let needle = typed.lowercased()
            return needle.isEmpty || [binding.help, binding.action.name, binding.keyNames].contains { $0.lowercased().contains(needle) }
        case .awaitingKey:
            return true
        case .key(let key):
            return binding.keys.contains(key)
        }
    }

    /// The overlay's title while it filters.
    var title: String {
        switch self {
        case .words(let typed): "Keys with \"\(typed)\" · Backspace widens · Esc closes"
        case .awaitingKey: "Press the key to look up · Esc closes"
        case .key(let key): "What \(key.description) does here · Esc closes"
        }
    }
}
