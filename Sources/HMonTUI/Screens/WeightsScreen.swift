import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let weights = ScreenID("weights")
}

extension Action {
    public static let toggleUnit = Action("toggle unit")
    public static let nextScale = Action("next scale")
}

/// The weights of one scale, under the trend of all of them (chart and summary), paging older readings in.
@MainActor
final class WeightsScreen: DashboardScreen {
    let id = ScreenID.weights
    let title = "Weights"
    private let context: ScreenContext
    /// The weights of the chosen scale; nil until one is opened.
    private(set) var model: WeightsModel?
    /// The table's page size and scroll position, from the last layout.
    private(set) var table = TableState()

    init(_ context: ScreenContext) { self.context = context }

    let bindings: [Binding] = KeyMap.pagedTable(noun: "reading", oldest: "oldest reading (loads them all)") + [
        Binding(.char("u"), does: .toggleUnit, help: "switch kg / lb"),
    ] + KeyMap.tableEdits(add: "add a weigh-in", noun: "weigh-in")
      + KeyMap.span("chart a longer span (30 days, 90 days, 1 year, all)", "chart a shorter span") + [
        Binding(.char("f"), does: .nextScale, help: "all scales, each scale, or the weigh-ins kept aside (came twice)"),
    ]

    /// Most important last: on a narrow terminal the unit key gives way before `a`, which a first weigh-in needs.
    let hints = [Hint(.toggleUnit, "kg/lb"), Hint(.addReading, "add"), Hint(.undo, "undo"),
                 Hint(.help, "help"), Hint(.quit, "quit")]

    /// The question `d` asks.
    static let deleteQuestion = KeyMap.deleteQuestion("weigh-in")

    /// The question a typed weight far from the trend asks (a likely typo).
    static let farFromTrendQuestion: [Binding] = [
        Binding(.char("y"), .char("Y"), does: .confirm, help: "yes, save the weight as typed"),
        Binding(.char("n"), .char("N"), .escape, does: .cancel, help: "no, back to the prompt to fix it"),
        Binding(.ctrl("c"), does: .quit, help: "quit"),
    ]

    var modal: (title: String, bindings: [Binding])? {
        if model?.deleting != nil { return ("Deleting a weigh-in", Self.deleteQuestion) }
        if model?.farFromTrend != nil { return ("A weight far from your trend", Self.farFromTrendQuestion) }
        return model?.prompt == nil ? nil : ("Typing a value", KeyMap.prompt)
    }

    var isTyping: Bool { model?.prompt != nil && model?.farFromTrend == nil }
    var isRefreshing: Bool { model?.isRefreshing ?? false }
    var problem: String? { model?.problem ?? (model == nil && context.app.devices.lastUpdated != nil ? "no scale yet: a adds a weigh-in and makes one" : nil) }
    var lastUpdated: Date? { model?.lastUpdated }
    /// Weigh-ins, the scale's name and the goal: not a meal or an HRV measurement.
    var changeKinds: Set<ChangeKind>? { [.weights, .devices, .profile] }

    /// Opens on the person's default scale, the one `a` saves to whichever device was picked last (and the one
    /// `hmon add weight` and an import use); `f` shows one scale at a time. With no scale at all it opens
    /// empty, and `a` makes one with the first weigh-in, as `hmon add weight` does.
    func open() -> Command? {
        let devices = context.app.devices
        guard let device = devices.defaultScale else {
            model = nil
            return Command.none
        }
        let scales = devices.devices.filter { devices.manifest(of: $0)?.hasWeight == true }
        if model?.device.id != device.id || model?.scales.map(\.id) != scales.map(\.id) {
            let manifest = devices.manifest(of: device) ?? Manifest(fields: [FieldSpec(name: Field.weight, type: .double, unit: "kg")])
            model = WeightsModel(service: context.app.service, device: device, manifest: manifest,
                                 preferred: context.app.preferredMass, clock: context.app.clock, scales: scales)
        }
        devices.select(deviceID: device.id)
        return refresh()
    }

    func refresh() -> Command { model?.refresh(rows: table.pageSize) ?? (open() ?? .none) }

    private(set) var notice: String?

    func perform(_ action: Action) -> Command {
        notice = nil
        guard let model else { return action == .addReading ? makeScaleAndAdd() : .none }
        if model.farFromTrend != nil {
            if action == .confirm { return model.confirmFarFromTrend() }
            if action == .cancel { model.cancelFarFromTrend() }
            return .none
        }
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
        case .bottom: return model.moveToOldest()
        case .toggleUnit: return model.toggleUnit()
        case .addReading: model.openPrompt()
        case .editReading: model.openEditPrompt()
        case .deleteReading: model.askToDelete()
        case .longerSpan: return model.longerSpan()
        case .shorterSpan: return model.shorterSpan()
        case .nextScale: return model.nextFilter()
        default: break
        }
        return .none
    }

    /// `a` with no scale: makes one, as `hmon add weight` does, says so, and opens the prompt on it.
    private func makeScaleAndAdd() -> Command {
        context.app.devices.makeDevice(recording: Field.weight, orMake: .scale, made: { [weak self] name in
            self?.notice = "made a scale, \"\(name)\", for your weigh-ins"
        }, then: { [weak self] in
            guard let self else { return .none }
            let opened = open() ?? .none
            model?.openPrompt()
            return opened
        })
    }

    func type(_ character: Character) { model?.promptType(character) }

    func layout(in area: Rect) {
        let layout = WeightsView.Layout(area: area)
        table.layout(pageSize: layout.tableRows, selected: model?.selectedIndex ?? 0,
                     count: model?.rows.count ?? 0, firstRowY: layout.firstRowY)
    }

    func select(at point: Point) -> Command {
        guard let model, model.prompt == nil, let index = table.row(atY: point.y) else { return .none }
        return model.moveSelection(by: index - model.selectedIndex)
    }

    /// A taller terminal shows more rows: load older readings until the table is full (or there are no more).
    func resized() -> Command {
        guard let model, model.lastUpdated != nil, !model.isRefreshing, !model.isLoadingOlder,
              model.hasOlder, model.rows.count < table.pageSize else { return .none }
        return model.loadOlder(filling: table.pageSize)
    }

    func draw(on canvas: Canvas, in area: Rect) {
        guard let model else {
            let inner = canvas.panel(area, title: "Weights")
            canvas.text("No scale yet: a adds a weigh-in (and makes a scale), or hmon add weight 72.4 from a shell.",
                        at: Point(x: inner.x + 1, y: inner.y), style: .dim, maxWidth: inner.width - 2)
            return
        }
        WeightsView(model: model, table: table).draw(on: canvas, in: area)
    }
}

extension WeightsScreen: SeekableScreen {
    func seek(_ seek: TableSeek) -> Command { model?.seek(seek) ?? .none }
    var today: Day { context.app.clock.today }
}
