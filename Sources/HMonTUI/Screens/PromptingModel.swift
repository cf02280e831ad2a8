import HealthViewModels

/// A view model with an inline prompt (a new weight, consumed energy): while it is open, the screen's keys
/// give way to the prompt's (`KeyMap.prompt`).
@MainActor
protocol PromptingModel: AnyObject {
    var prompt: TextField? { get }
    func submitPrompt() -> Command
    func cancelPrompt()
    func promptEdit(_ edit: TextEdit)
}

extension PromptingModel {
    /// The prompt's keys: Enter saves, Esc cancels, the field's keys edit (`TextEdit`).
    func performInPrompt(_ action: Action) -> Command {
        switch action {
        case .submit: return submitPrompt()
        case .cancel: cancelPrompt()
        default: if let edit = TextEdit(action) { promptEdit(edit) }
        }
        return .none
    }
}

extension WeightsModel: PromptingModel {}
extension EnergyModel: PromptingModel {}
