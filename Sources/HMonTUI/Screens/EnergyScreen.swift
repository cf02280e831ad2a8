import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let energy = ScreenID("energy")
}

extension Action {
    public static let previousDay = Action("previous day")
    public static let nextDay = Action("next day")
    public static let today = Action("today")
}

/// A day's energy balance and the week around it; `a` logs consumed energy to the food log, whose entries
/// ↑/↓ pick and `e`/`d` correct or delete, with the keys of every table screen.
@MainActor
final class EnergyScreen: DashboardScreen {
    let id = ScreenID.energy
    let title = "Energy"
    let model: EnergyModel

    init(_ context: ScreenContext) {
        let devices = context.app.devices
        model = EnergyModel(service: context.app.service, clock: context.app.clock, foodLog: { devices.firstFoodLog },
                            foodLogs: { devices.devices.filter { devices.manifest(of: $0)?.field(Field.calories) != nil } },
                            devicesChanged: { devices.refresh() })
    }

    let bindings: [Binding] = [
        Binding(.left, .char("h"), does: .previousDay, help: "previous day"),
        Binding(.right, .char("l"), does: .nextDay, help: "next day"),
        Binding(.char("t"), does: .today, help: "back to today"),
        Binding(.up, .char("k"), does: .up, help: "earlier food entry (shows the food log)"),
        Binding(.down, .char("j"), does: .down, help: "later food entry"),
    ] + KeyMap.tableEdits(add: "log consumed energy", noun: "food entry")

    let hints = [Hint(.previousDay, "day"), Hint(.nextDay, "day"), Hint(.addReading, "log food"), Hint(.undo, "undo"),
                 Hint(.help, "help"), Hint(.quit, "quit")]

    /// The question `d` asks.
    static let deleteQuestion = KeyMap.deleteQuestion("food entry")

    var modal: (title: String, bindings: [Binding])? {
        if model.deleting != nil { return ("Deleting a food entry", Self.deleteQuestion) }
        guard model.prompt != nil else { return nil }
        guard model.isDescribing else { return ("Typing the energy eaten", KeyMap.prompt) }
        return ("Saying what it was", [
            Binding(.up, does: .up, help: "previous recent description"),
            Binding(.down, does: .down, help: "next recent description"),
        ] + KeyMap.prompt)
    }

    var isTyping: Bool { model.prompt != nil }
    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var notice: String? { model.notice }
    var lastUpdated: Date? { model.lastUpdated }
    /// A weigh-in changes the resting energy too (the BMR's weight); an HRV measurement changes nothing here.
    var changeKinds: Set<ChangeKind>? { [.energy, .weights, .devices, .profile] }

    func open() -> Command? { model.refresh(withLearned: true) }
    func refresh() -> Command { model.refresh(withLearned: true) }

    func perform(_ action: Action) -> Command {
        model.notice = nil
        if model.prompt != nil {
            switch action {
            case .up: model.moveSuggestion(by: -1)
            case .down: model.moveSuggestion(by: 1)
            default: return model.performInPrompt(action)
            }
            return .none
        }
        if model.deleting != nil {
            if action == .confirm { return model.confirmDelete() }
            if action == .cancel { model.cancelDelete() }
            return .none
        }
        switch action {
        case .previousDay: return model.previousDay()
        case .nextDay: return model.nextDay()
        case .today: return model.goToToday()
        case .up: model.moveEntry(by: -1)
        case .down: model.moveEntry(by: 1)
        case .addReading: model.openPrompt()
        case .editReading: model.openEditPrompt()
        case .deleteReading: model.askToDelete()
        default: break
        }
        return .none
    }

    func type(_ character: Character) { model.promptType(character) }

    func draw(on canvas: Canvas, in area: Rect) {
        EnergyView(model: model).draw(on: canvas, in: area)
    }
}
