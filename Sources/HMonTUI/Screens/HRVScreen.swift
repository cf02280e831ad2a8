import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let hrv = ScreenID("hrv")
}

extension Action {
    public static let toggleDays = Action("toggle 30/90 days")
    public static let addMeasurement = Action("add measurement")
}

/// Heart rate variability: the latest measurement, RMSSD against the baseline, and the measurements.
@MainActor
final class HRVScreen: DashboardScreen {
    let id = ScreenID.hrv
    let title = "HRV"
    private let context: ScreenContext
    private(set) var model: HRVModel?
    private(set) var table = TableState()

    init(_ context: ScreenContext) { self.context = context }

    let bindings: [Binding] = KeyMap.pagedTable(noun: "measurement", oldest: "oldest loaded measurement (again: load older)") + [
        Binding(.char("d"), does: .toggleDays, help: "RMSSD over 30 / 90 days"),
        Binding(.char("a"), does: .addMeasurement, help: "add an RMSSD by hand"),
        Binding(.char("x"), does: .deleteReading, help: "delete the selected measurement (asks first)"),
    ]

    let hints = [Hint(.addMeasurement, "add"), Hint(.toggleDays, "30/90"), Hint(.refresh, "refresh"),
                 Hint(.help, "help"), Hint(.quit, "quit")]

    var modal: (title: String, bindings: [Binding])? {
        if model?.deleting != nil { return ("Deleting a measurement", Self.deleteQuestion) }
        return model?.prompt == nil ? nil : ("Typing a value", KeyMap.prompt)
    }

    /// The question `x` asks.
    static let deleteQuestion: [Binding] = [
        Binding(.char("y"), .char("Y"), does: .confirm, help: "yes, delete the measurement"),
        Binding(.char("n"), .char("N"), .escape, does: .cancel, help: "no, keep it"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    var isTyping: Bool { model?.prompt != nil }
    var isRefreshing: Bool { model?.isRefreshing ?? false }
    var problem: String? { model?.problem ?? (model == nil ? "no HRV meter: add one with `hmon device add --type \"HRV Meter\"`" : nil) }
    var lastUpdated: Date? { model?.lastUpdated }

    /// Opens the measurements of all the user's HRV meters (a hand-added one goes to the first); without a
    /// meter it opens empty and says how to add one.
    func open() -> Command? {
        let devices = context.app.devices
        guard let meter = devices.devices.first(recording: Field.rmssd, manifests: devices.manifests) else {
            model = nil
            return Command.none
        }
        let meters = devices.devices.filter { devices.manifests[$0.dtid]?.field(Field.rmssd) != nil }
        if model?.device.id != meter.id || model?.meters.map(\.id) != meters.map(\.id) {
            model = HRVModel(service: context.app.service, device: meter, clock: context.app.clock, meters: meters)
        }
        return refresh()
    }

    func refresh() -> Command { model?.refresh() ?? .none }

    func perform(_ action: Action) -> Command {
        guard let model else { return .none }
        if model.prompt != nil { return model.performInPrompt(action) }
        if model.deleting != nil {
            if action == .confirm { return model.confirmDelete() }
            if action == .cancel { model.cancelDelete() }
            return .none
        }
        switch action {
        case .up: return model.moveSelection(by: -1)
        case .down: return model.moveSelection(by: 1)
        case .pageUp: return model.moveSelection(by: -table.pageSize)
        case .pageDown: return model.moveSelection(by: table.pageSize)
        case .top: model.moveToTop()
        case .bottom: return model.moveToBottom()
        case .toggleDays: model.toggleDays()
        case .addMeasurement: model.openPrompt()
        case .deleteReading: model.askToDelete()
        default: break
        }
        return .none
    }

    func type(_ character: Character) { model?.promptType(character) }

    func layout(in area: Rect) {
        table.layout(pageSize: HRVView.tableRows(in: area), selected: model?.selectedIndex ?? 0, count: model?.rows.count ?? 0,
                     firstRowY: HRVView.firstRowY(in: area))
    }

    func select(at point: Point) -> Command {
        guard let model, model.prompt == nil, let index = table.row(atY: point.y) else { return .none }
        return model.moveSelection(by: index - model.selectedIndex)
    }

    func draw(on canvas: Canvas, in area: Rect) {
        if let model {
            HRVView(model: model, table: table).draw(on: canvas, in: area)
        } else {
            let inner = canvas.panel(area, title: "HRV")
            canvas.text("No HRV meter yet: run `hmon hrv link` (Welltory) or `hmon device add --type \"HRV Meter\" --name NAME`.",
                        at: Point(x: inner.x + 1, y: inner.y), style: .dim, maxWidth: inner.width - 2)
        }
    }
}

extension HRVModel: PromptingModel {}
