import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let hrv = ScreenID("hrv")
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

    let bindings: [Binding] = KeyMap.pagedTable(noun: "measurement", oldest: "oldest loaded measurement (again: load older)")
        + KeyMap.tableEdits(add: "add an RMSSD by hand (makes an HRV meter if there is none)", noun: "measurement")
        + KeyMap.span("RMSSD over 90 days", "RMSSD over 30 days")

    /// Most important last: `a` stays on a narrow terminal, since a first measurement needs it.
    let hints = [Hint(.longerSpan, "span"), Hint(.addReading, "add"), Hint(.undo, "undo"),
                 Hint(.help, "help"), Hint(.quit, "quit")]

    var modal: (title: String, bindings: [Binding])? {
        if model?.deleting != nil { return ("Deleting a measurement", Self.deleteQuestion) }
        return model?.prompt == nil ? nil : ("Typing a value", KeyMap.prompt)
    }

    /// The question `d` asks.
    static let deleteQuestion = KeyMap.deleteQuestion("measurement")

    var isTyping: Bool { model?.prompt != nil }
    var isRefreshing: Bool { model?.isRefreshing ?? false }
    var problem: String? { model?.problem ?? (model == nil ? "no HRV meter yet: a adds a measurement and makes one" : nil) }
    var lastUpdated: Date? { model?.lastUpdated }
    var changeKinds: Set<ChangeKind>? { [.hrv, .devices] }

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

    private(set) var notice: String?

    func perform(_ action: Action) -> Command {
        notice = nil
        guard let model else { return action == .addReading ? makeMeterAndAdd() : .none }
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
        case .halfPageUp: return model.moveSelection(by: -table.halfPage)
        case .halfPageDown: return model.moveSelection(by: table.halfPage)
        case .top: model.moveToTop()
        case .bottom: return model.moveToBottom()
        case .longerSpan: model.showDays(90)
        case .shorterSpan: model.showDays(30)
        case .addReading: model.openPrompt()
        case .editReading: model.openEditPrompt()
        case .deleteReading: model.askToDelete()
        default: break
        }
        return .none
    }

    /// `a` with no HRV meter: makes one, as `hmon add hrv` does, says so, and opens the prompt on it.
    private func makeMeterAndAdd() -> Command {
        context.app.devices.makeDevice(recording: Field.rmssd, orMake: .hrvMeter, made: { [weak self] name in
            self?.notice = "made an HRV meter, \"\(name)\", for your measurements"
        }, then: { [weak self] in
            guard let self else { return .none }
            let opened = open() ?? .none
            model?.openPrompt()
            return opened
        })
    }

    func type(_ character: Character) { model?.promptType(character) }

    func layout(in area: Rect) {
        let layout = HRVView.Layout(area: area)
        table.layout(pageSize: layout.tableRows, selected: model?.selectedIndex ?? 0, count: model?.rows.count ?? 0,
                     firstRowY: layout.firstRowY)
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
            // Wrapped, never cut: at 80 columns the command at its end would not fit on one line.
            let text = "No HRV meter yet: a adds a measurement by hand (and makes one), or run `hmon hrv link` for Welltory."
            for (i, line) in WordWrap.lines(text, width: max(1, inner.width - 2)).enumerated() where i < inner.height {
                canvas.text(line, at: Point(x: inner.x + 1, y: inner.y + i), style: .dim, maxWidth: inner.width - 2)
            }
        }
    }
}

extension HRVModel: PromptingModel {}

extension HRVScreen: SeekableScreen {
    func seek(_ seek: TableSeek) -> Command { model?.seek(seek) ?? .none }
    var today: Day { context.app.clock.today }
}
