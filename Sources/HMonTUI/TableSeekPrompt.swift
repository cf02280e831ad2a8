import HealthModel
import HealthViewModels

/// A table screen that `/` (find a text) and `t` (to a date) move through: Weights and HRV.
@MainActor
protocol SeekableScreen: DashboardScreen {
    /// Selects the row `seek` names, loading older rows as needed (`PagedReadingList`).
    func seek(_ seek: TableSeek) -> Command
    /// Today in the person's time zone, for "yesterday" and "today".
    var today: Day { get }
}

/// The one-line prompt `/` and `t` open in the status bar. Kept by the dashboard, not by a screen, so each
/// table screen gets it by conforming to `SeekableScreen`. `/` opens empty, as a pager's does: typing starts a
/// new text at once; the last text found is one key away, Enter on the empty prompt finding its next row and ↑
/// bringing it back to edit.
struct TableSeekPrompt: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case text, day }

    var kind: Kind
    var field: TextField
    /// The text found last, which Enter on an empty prompt finds again; empty when there is none.
    var last = ""
    /// Why Enter did not go: a text that is no date. Cleared by the next key.
    var problem: String?

    static func find(again last: String) -> TableSeekPrompt {
        let hint = last.isEmpty ? nil : "Enter: next \"\(last.prefix(30))\", ↑: edit it"
        return TableSeekPrompt(kind: .text, field: TextField(label: "Find", limit: 60, hint: hint), last: last)
    }

    /// ↑: the last text found, to edit.
    mutating func recallLast() {
        guard kind == .text, !last.isEmpty else { return }
        field = TextField(label: field.label, text: last, limit: 60)
    }

    static let toDay = TableSeekPrompt(kind: .day, field: TextField(label: "To the date", limit: 20,
                                                                    hint: "2026-11-20, 2026-11-3, yesterday"))

    /// What Enter asks of the screen, or why the text is not a date.
    func seek(today: Day) -> Result<TableSeek, SeekTypo> {
        switch kind {
        case .text: return .success(.text(field.text.isEmpty ? last : field.text))
        case .day:
            guard let seek = TableSeek.day(typed: field.text, today: today) else {
                return .failure(SeekTypo(message: "not a date: type 2026-11-20 or yesterday"))
            }
            return .success(seek)
        }
    }
}

/// A date typed after `t` that names no day, said in the status bar with the forms it takes.
struct SeekTypo: Error, Equatable {
    var message: String
}
