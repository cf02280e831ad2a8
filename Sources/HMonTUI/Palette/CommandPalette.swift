import HealthModel
import HealthViewModels

/// One thing the palette can do: a screen, an action of the screen on show or of every screen, or a day to
/// go to on a table screen.
struct PaletteEntry: Equatable {
    enum Target: Equatable {
        case action(Action)
        case seek(TableSeek)
        /// A device by its id: the devices screen, with it selected.
        case device(String)
    }

    /// What the list shows and the text matches: "Energy", "undo your last add, edit or delete".
    var title: String
    /// Where it belongs: "screen", the screen's title, "everywhere", "date".
    var group: String
    /// The keys that do the same without the palette ("3", "U"); empty when none.
    var keys: String
    var target: Target
    /// Further words the text may match (the action's name in config.toml: "cycle-theme").
    var alias: String = ""
}

/// `:`: a line to type in and the entries it finds, best first (recently run entries first among equals);
/// ↑/↓ choose, Enter runs, Esc closes. The entries come from the key tables and the registry each time the
/// text changes, so the palette offers exactly what the keys do.
struct CommandPalette: Equatable {
    var field = TextField(label: ":", limit: 60)
    var selected = 0
    /// What Enter did not run, said in the palette: "nothing matches".
    var problem: String?

    /// The entries `field` finds among `all`: every one when nothing is typed (recent first); otherwise those
    /// whose title or alias hold the typed letters in order, the best matches first.
    func matches(_ all: [PaletteEntry], recent: [String]) -> [PaletteEntry] {
        let recency = { (entry: PaletteEntry) in recent.firstIndex(of: entry.title).map { recent.count - $0 } ?? 0 }
        let text = field.text
        let scored: [(entry: PaletteEntry, score: Int, order: Int)] = all.enumerated().compactMap { order, entry in
            if entry.group == "date" { return (entry, Int.max, order) }   // a date typed is what was meant
            guard let score = [entry.title, entry.alias]
                .compactMap({ FuzzyMatch.score(text, in: $0) }).max() else { return nil }
            return (entry, score + recency(entry) * 10_000, order)
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.order < $1.order }.map(\.entry)
    }

    mutating func move(by step: Int, count: Int) {
        guard count > 0 else { return }
        selected = min(max(selected + step, 0), count - 1)
    }

    mutating func type(_ character: Character) {
        field.insert(character)
        selected = 0
        problem = nil
    }

    mutating func edit(_ edit: TextEdit) {
        field.apply(edit)
        selected = 0
        problem = nil
    }
}
