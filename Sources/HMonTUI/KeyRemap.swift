import HealthViewModels
import Terminal

/// The keys `[keys]` in config.toml gives actions instead of their defaults, applied to every key table the
/// dashboard looks keys up in, so help, the palette, the status bar's hints and the keys themselves agree.
public struct KeyRemap: Sendable, Equatable {
    /// Each remapped action's keys.
    public private(set) var keys: [Action: [Key]] = [:]

    public init() {}

    /// `table` with each remapped action on its new keys; another action keeps only the keys no remap took.
    func applied(to table: [Binding]) -> [Binding] {
        guard !keys.isEmpty else { return table }
        let taken = Set(keys.values.flatMap { $0 })
        return table.compactMap { binding in
            var changed = binding
            if let remapped = keys[binding.action] {
                changed.keys = remapped
            } else {
                changed.keys = binding.keys.filter { !taken.contains($0) }
                if changed.keys.isEmpty { return nil }
            }
            return changed
        }
    }

    /// The name `[keys]` and `hmon keys --list` give an action: its words joined by "-" ("cycle-theme"), a
    /// screen's own name for the key that shows it ("energy").
    static func name(of action: Action, screens: [ScreenID]) -> String {
        if let index = screens.indices.first(where: { action == .showTab($0 + 1) }) { return screens[index].rawValue }
        return action.name.replacingOccurrences(of: " ", with: "-")
    }

    /// Reads `settings` against the actions `tables` hold (the global table first, as "Everywhere", then each
    /// screen's under its title): an unknown action, a key name hmon cannot read, or a key another action already has
    /// by default in a table where the remapped action is too, is a problem with its place, and that action
    /// keeps its defaults.
    static func resolve(_ settings: [KeySetting], tables: [(title: String, bindings: [Binding])],
                        screens: [ScreenID]) -> (remap: KeyRemap, problems: [String]) {
        var actions: [String: Action] = [:]
        for binding in tables.flatMap(\.bindings) { actions[name(of: binding.action, screens: screens)] = binding.action }
        var remap = KeyRemap(), problems: [String] = []
        var wanted: [Action: (keys: [Key], place: String)] = [:]
        for setting in settings {
            guard let action = actions[setting.action] else {
                let known = actions.keys.sorted().prefix(12).joined(separator: ", ")
                problems.append("\(setting.place): no action \"\(setting.action.prefix(40))\": use one of \(known), … (hmon keys --list)")
                continue
            }
            let parsed = setting.keys.map { (name: $0, key: KeyName.key(named: $0)) }
            if let bad = parsed.first(where: { $0.key == nil }) {
                problems.append("\(setting.place): \"\(bad.name.prefix(20))\" is no key hmon knows: write a character (\"E\"), "
                                + "ctrl-x, F5, Tab, Enter, Esc, Space, Up, PgDn …; \(setting.action) keeps its keys")
                continue
            }
            wanted[action] = (parsed.compactMap(\.key), setting.place)
        }
        // A key taken from an action that keeps its defaults, in a table where both are, would leave that
        // action without the key people know it by: said, and the remap not made.
        for (action, want) in wanted.sorted(by: { $0.value.place < $1.value.place }) {
            // An action of the first table (everywhere) meets every screen's keys; a screen's own meets its
            // screen's and the first table's.
            let everywhere = tables.first?.bindings.contains { $0.action == action } ?? false
            let clash = tables.enumerated().lazy.compactMap { index, table -> String? in
                guard everywhere || index == 0 || table.bindings.contains(where: { $0.action == action }) else { return nil }
                return table.bindings.first { other in
                    other.action != action && wanted[other.action] == nil && other.keys.contains { want.keys.contains($0) }
                }.map { "\($0.keys.first { want.keys.contains($0) }!.description) is already \"\($0.help)\" (\(table.title))" }
            }.first
            if let clash {
                problems.append("\(want.place): \(clash): remap that action too or choose another key; "
                                + "\(name(of: action, screens: screens)) keeps its keys")
            } else {
                remap.keys[action] = want.keys
            }
        }
        return (remap, problems)
    }
}

/// Key names as config.toml writes them: one character as itself ("E", ":"), and by name, in any case:
/// ctrl-x, F1–F12, Tab, Shift-Tab, Enter, Esc, Space, Backspace, Del, Home, End, PgUp, PgDn, Up, Down,
/// Left, Right (and the arrows ↑ ↓ ← →, as the help prints them).
enum KeyName {
    static func key(named text: String) -> Key? {
        if text.count == 1, let character = text.first {
            switch character {
            case "↑": return .up
            case "↓": return .down
            case "←": return .left
            case "→": return .right
            default: return character.isWhitespace || character.asciiValue.map({ $0 < 32 || $0 == 127 }) == true ? nil : .char(character)
            }
        }
        let lower = text.lowercased()
        if lower.hasPrefix("ctrl-") || lower.hasPrefix("c-"), let letter = lower.split(separator: "-", maxSplits: 1).last,
           letter.count == 1, let c = letter.first, c.isLetter, c.isASCII {
            return .ctrl(c)
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number) { return .function(number) }
        let named: [String: Key] = [
            "tab": .tab, "shift-tab": .backTab, "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape,
            "space": .char(" "), "backspace": .backspace, "del": .delete, "delete": .delete, "home": .home, "end": .end,
            "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
            "up": .up, "down": .down, "left": .left, "right": .right,
        ]
        return named[lower]
    }
}
