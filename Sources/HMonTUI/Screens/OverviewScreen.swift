import Foundation
import HealthCore
import HealthViewModels
import Terminal

extension ScreenID {
    public static let overview = ScreenID("overview")
}

extension Action {
    /// Enter on the overview: the screen that shows the selected line in full.
    public static let openLine = Action("open line")
}

/// One glance: the weight trend, net energy, HRV, sleep, resting heart rate and steps, each with its last
/// 30 days on one time axis. Read only: each figure is changed on its own screen, which Enter on its line
/// opens (↑/↓ choose the line).
@MainActor
final class OverviewScreen: DashboardScreen {
    let id = ScreenID.overview
    let title = "Overview"
    let model: OverviewModel
    private let context: ScreenContext
    /// The chosen line, by position (kept within the lines when they change).
    private(set) var selected = 0
    /// Where the lines were drawn last, for a click.
    private var area = Rect(x: 0, y: 0, width: 0, height: 0)

    init(_ context: ScreenContext) {
        self.context = context
        model = OverviewModel(service: context.app.service, clock: context.app.clock)
    }

    let bindings: [Binding] = [
        Binding(.up, .char("k"), does: .up, help: "previous line"),
        Binding(.down, .char("j"), does: .down, help: "next line"),
        Binding(.enter, does: .openLine, help: "open the line's screen (weight, energy, steps, HRV, sleep, vitals)"),
    ]
    let hints = [Hint(.openLine, "open"), Hint(.refresh, "refresh"), Hint(.help, "help"), Hint(.quit, "quit")]

    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var lastUpdated: Date? { model.lastUpdated }

    func open() -> Command? { refresh() }
    func refresh() -> Command { model.refresh() }

    func perform(_ action: Action) -> Command {
        let count = model.rows.count
        switch action {
        case .up: selected = max(0, min(selected, count - 1) - 1)
        case .down: selected = max(0, min(selected + 1, count - 1))
        case .openLine:
            guard model.rows.indices.contains(selected), let screen = Self.screen(for: model.rows[selected].topic) else { return .none }
            return context.show(screen)
        default: break
        }
        return .none
    }

    /// The screen a line's figure lives on; nil for a line with none of its own yet (resting heart rate,
    /// readiness).
    static func screen(for topic: OverviewRow.Topic) -> ScreenID? {
        switch topic {
        case .weight: .weights
        case .energy, .steps: .energy
        case .hrv: .hrv
        case .sleep: .sleep
        case .vitalSign: .vitals
        case .restingHeartRate, .readiness: nil
        }
    }

    func layout(in area: Rect) {
        self.area = area
        selected = max(0, min(selected, model.rows.count - 1))
    }

    func select(at point: Point) -> Command {
        if let line = OverviewView(model: model, selected: selected).line(atY: point.y, in: area) { selected = line }
        return .none
    }

    func draw(on canvas: Canvas, in area: Rect) {
        OverviewView(model: model, selected: selected).draw(on: canvas, in: area)
    }
}
