import HealthModel
import HealthViewModels

extension Dashboard {
    /// The screen a kind of reading shows on, when it has one.
    static func screen(showing kind: ReadingKindWord) -> ScreenID? {
        switch kind {
        case .weighIn: .weights
        case .meal, .activity: .energy
        case .hrv: .hrv
        case .other: nil
        }
    }

    /// " (on HRV)" when the reading an undo changed shows on another screen than the one on show: an undo
    /// reaches back through the whole session, whichever screen (or shell) made the change.
    func undoneElsewhere(_ kind: ReadingKindWord?) -> String {
        guard let kind, let id = Self.screen(showing: kind), id != app.screen,
              let screen = screens.first(where: { $0.id == id }) else { return "" }
        return " (on \(screen.title))"
    }
}
