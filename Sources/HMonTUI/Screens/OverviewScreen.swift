import Foundation
import HealthCore
import HealthViewModels
import Terminal

extension ScreenID {
    public static let overview = ScreenID("overview")
}

/// One glance: the weight trend, net energy, HRV, sleep, resting heart rate and steps, each with its last
/// 30 days on one time axis. Read only: each figure is changed on its own screen.
@MainActor
final class OverviewScreen: DashboardScreen {
    let id = ScreenID.overview
    let title = "Overview"
    let model: OverviewModel

    init(_ context: ScreenContext) {
        model = OverviewModel(service: context.app.service, clock: context.app.clock)
    }

    let bindings: [Binding] = []
    let hints = [Hint(.refresh, "refresh"), Hint(.help, "help"), Hint(.quit, "quit")]

    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var lastUpdated: Date? { model.lastUpdated }

    func open() -> Command? { refresh() }
    func refresh() -> Command { model.refresh() }
    func perform(_ action: Action) -> Command { .none }

    func draw(on canvas: Canvas, in area: Rect) {
        OverviewView(model: model).draw(on: canvas, in: area)
    }
}
