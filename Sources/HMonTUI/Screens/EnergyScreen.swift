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
    public static let logEnergy = Action("log energy")
}

/// A day's energy balance and the week around it; `a` logs consumed energy to the food log.
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
        Binding(.char("a"), does: .logEnergy, help: "log consumed energy"),
    ]

    let hints = [Hint(.previousDay, "day"), Hint(.nextDay, "day"), Hint(.logEnergy, "log food"), Hint(.refresh, "refresh"),
                 Hint(.help, "help"), Hint(.quit, "quit")]

    var modal: (title: String, bindings: [Binding])? {
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

    func open() -> Command? { model.refresh() + model.refreshLearnedExpenditure() }
    func refresh() -> Command { model.refresh() + model.refreshLearnedExpenditure() }

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
        switch action {
        case .previousDay: return model.previousDay()
        case .nextDay: return model.nextDay()
        case .today: return model.goToToday()
        case .logEnergy: model.openPrompt()
        default: break
        }
        return .none
    }

    func type(_ character: Character) { model.promptType(character) }

    func draw(on canvas: Canvas, in area: Rect) {
        EnergyView(model: model).draw(on: canvas, in: area)
    }
}
