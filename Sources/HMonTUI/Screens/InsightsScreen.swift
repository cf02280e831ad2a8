import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let insights = ScreenID("insights")
}

extension Action {
    public static let toggleCorrelation = Action("show the pair's series")
    public static let closeCorrelation = Action("close the pair's series")
}

/// Insights: findings, medians per weekday, and the correlations that survive the false-discovery control.
@MainActor
final class InsightsScreen: DashboardScreen {
    let id = ScreenID.insights
    let title = "Insights"
    private let context: ScreenContext
    private(set) var model: InsightsModel
    private(set) var table = TableState()

    init(_ context: ScreenContext) {
        self.context = context
        model = InsightsModel(service: context.app.service, clock: context.app.clock)
    }

    /// Every key of the screen, as the docs list them: moving between correlations, and opening one.
    static let table: [Binding] = [
        Binding(.up, .char("k"), does: .up, help: "previous correlation"),
        Binding(.down, .char("j"), does: .down, help: "next correlation"),
        Binding(.pageUp, does: .pageUp, help: "page up"),
        Binding(.pageDown, does: .pageDown, help: "page down"),
        Binding(.home, .char("g"), does: .top, help: "first correlation"),
        Binding(.end, .char("G"), does: .bottom, help: "last correlation"),
        Binding(.enter, does: .toggleCorrelation, help: "the two series side by side"),
    ]

    /// The keys that move between correlations are listed only when there is more than one to move between,
    /// and Enter only when there is one to open: a key the help lists does something.
    var bindings: [Binding] {
        if model.correlations.count > 1 { return Self.table }
        return model.correlations.isEmpty ? [] : Self.table.filter { $0.action == .toggleCorrelation }
    }

    var allBindings: [Binding] { Self.table }

    /// While the two series are open: Enter or Esc closes them, ↑↓ step through the pairs (when there are several).
    var detailBindings: [Binding] {
        [Binding(.enter, .escape, does: .closeCorrelation, help: "close the series")] + (model.correlations.count > 1 ? [
            Binding(.up, .char("k"), does: .up, help: "previous correlation"),
            Binding(.down, .char("j"), does: .down, help: "next correlation"),
        ] : [])
    }

    let hints = [Hint(.toggleCorrelation, "series"), Hint(.refresh, "refresh"), Hint(.help, "help"), Hint(.quit, "quit")]

    var modal: (title: String, bindings: [Binding])? {
        model.detail == nil ? nil : ("A pair's series", detailBindings)
    }

    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var lastUpdated: Date? { model.lastUpdated }

    func open() -> Command? { refresh() }

    func refresh() -> Command { model.refresh() }

    func perform(_ action: Action) -> Command {
        switch action {
        case .up: model.moveSelection(by: -1)
        case .down: model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -table.pageSize)
        case .pageDown: model.moveSelection(by: table.pageSize)
        case .top: model.moveToTop()
        case .bottom: model.moveToBottom()
        case .toggleCorrelation: model.toggleDetail()
        case .closeCorrelation: model.closeDetail()
        default: break
        }
        return .none
    }

    func layout(in area: Rect) {
        table.layout(pageSize: InsightsView.correlationRows(in: area, model: model), selected: model.selectedIndex,
                     count: model.correlations.count)
    }

    func draw(on canvas: Canvas, in area: Rect) {
        InsightsView(model: model, table: table).draw(on: canvas, in: area)
    }
}
