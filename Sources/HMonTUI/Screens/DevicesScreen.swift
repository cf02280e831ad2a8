import Foundation
import HealthViewModels
import Terminal

extension Action {
    public static let openDevice = Action("open device")
    public static let addDevice = Action("add device")
}

/// You and your devices: the user card, the devices with their last readings, the selected device's
/// recent readings, adding a device, and signing out.
@MainActor
final class DevicesScreen: DashboardScreen {
    let id = ScreenID.devices
    let title = "Devices"
    private let context: ScreenContext
    private var model: DevicesModel { context.app.devices }

    init(_ context: ScreenContext) { self.context = context }

    let bindings: [Binding] = [
        Binding(.up, .char("k"), does: .up, help: "previous device"),
        Binding(.down, .char("j"), does: .down, help: "next device"),
        Binding(.enter, does: .openDevice, help: "see weight (devices that weigh)"),
        Binding(.char("a"), does: .addDevice, help: "add a device"),
        Binding(.char("e"), does: .editReading, help: "rename the selected device"),
        Binding(.char("d"), does: .deleteReading, help: "delete the selected device (asks first, and how many readings go with it)"),
    ]

    /// The question `d` asks.
    static let deleteQuestion = KeyMap.deleteQuestion("device")

    /// Enter is offered only on a device whose readings carry a weight: on a watch or a food log it would
    /// only say why not.
    var hints: [Hint] {
        let weighs = model.selectedDevice.flatMap { model.manifest(of: $0)?.hasWeight } ?? false
        return (weighs ? [Hint(.openDevice, "see weight")] : [])
            // The profile's `p` here, on the first screen, rather than R: the screens update live, unless the
            // server is out of reach, and then R is what tries again.
            + [Hint(.addDevice, "add device"), context.app.offlineText == nil ? Hint(.editProfile, "profile") : Hint(.refresh, "refresh"),
               Hint(.help, "help"), Hint(.quit, "quit")]
    }

    var modal: (title: String, bindings: [Binding])? {
        if model.deleting != nil { return ("Deleting a device", Self.deleteQuestion) }
        if model.renaming != nil { return ("Renaming a device", KeyMap.prompt) }
        guard let form = model.adding else { return nil }
        // While the type is picked nothing is typed, so j/k move as on every list.
        guard form.stage == .pickType else { return ("Adding a device", KeyMap.prompt) }
        return ("Adding a device", KeyMap.prompt + [Binding(.up, .char("k"), does: .up, help: "previous type"),
                                                    Binding(.down, .char("j"), does: .down, help: "next type")])
    }

    var isTyping: Bool { model.adding?.stage == .name || model.renaming != nil }
    var notice: String? { model.notice }
    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var lastUpdated: Date? { model.lastUpdated }

    /// Devices added in another terminal show as soon as the screen does.
    func open() -> Command? { model.refresh() }
    func refresh() -> Command { model.refresh() }

    func perform(_ action: Action) -> Command {
        model.notice = nil
        if model.adding != nil { return performInForm(action) }
        if model.renaming != nil { return performInRename(action) }
        if model.deleting != nil {
            if action == .confirm { return model.confirmDelete() }
            if action == .cancel { model.cancelDelete() }
            return .none
        }
        switch action {
        case .up: return move(by: -1)
        case .down: return move(by: 1)
        case .top: return move(by: -model.rows.count)
        case .bottom: return move(by: model.rows.count)
        case .openDevice:
            guard let row = model.selectedRow else { return .none }
            guard row.canSeeWeight else {
                model.reportCannotSeeWeight(row)
                return .none
            }
            return context.show(.weights)
        case .addDevice:
            model.openAddDevice()
        case .editReading:
            model.openRename()
        case .deleteReading:
            model.askToDelete()
        default:
            break
        }
        return .none
    }

    /// Where the screen was laid out last, for clicks.
    private var area: Rect?

    func layout(in area: Rect) { self.area = area }

    func select(at point: Point) -> Command {
        guard model.adding == nil, let area, let index = DevicesView.device(atY: point.y, in: area, model: model),
              index != model.selectedIndex else { return .none }
        return move(by: index - model.selectedIndex)
    }

    private func move(by delta: Int) -> Command {
        model.moveSelection(by: delta)
        model.clearProblem()
        return model.loadRecent()
    }

    private func performInForm(_ action: Action) -> Command {
        switch action {
        case .up: model.moveTypeSelection(by: -1)
        case .down: model.moveTypeSelection(by: 1)
        case .submit: return model.submitAddDevice()
        case .cancel, .back: model.cancelAddDevice()
        default: if let edit = TextEdit(action) { model.addDeviceEdit(edit) }
        }
        return .none
    }

    private func performInRename(_ action: Action) -> Command {
        switch action {
        case .submit: return model.submitRename()
        case .cancel, .back: model.cancelRename()
        default: if let edit = TextEdit(action) { model.renameEdit(edit) }
        }
        return .none
    }

    func type(_ character: Character) {
        if model.renaming != nil { model.renameType(character) } else { model.addDeviceType(character) }
    }

    func draw(on canvas: Canvas, in area: Rect) {
        DevicesView(model: model).draw(on: canvas, in: area)
        if let form = model.adding {
            AddDeviceOverlay(form: form).draw(on: canvas, in: area)
        }
    }
}
