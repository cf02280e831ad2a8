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
    /// The prompt's keys: Enter saves, Esc cancels, Backspace deletes.
    func performInPrompt(_ action: Action) -> Command {
        switch action {
        case .submit: return submitPrompt()
        case .cancel: cancelPrompt()
        case .deleteBackward: promptEdit(.deleteBackward)
        case .deleteWord: promptEdit(.deleteWord)
        case .clearField: promptEdit(.clear)
        default: break
        }
        return .none
    }
}

extension WeightsModel: PromptingModel {}
extension EnergyModel: PromptingModel {}
