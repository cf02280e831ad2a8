import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let sleep = ScreenID("sleep")
}

/// Sleep: the nights of the last 90 days, the selected one's hypnogram, time asleep against the need, and
/// the regularity (SRI), debt and consistency. ←/→ move by night, `t` to a date.
@MainActor
final class SleepScreen: DashboardScreen {
    let id = ScreenID.sleep
    let title = "Sleep"
    private let context: ScreenContext
    private(set) var model: SleepModel
    private(set) var table = TableState()

    init(_ context: ScreenContext) {
        self.context = context
        model = SleepModel(service: context.app.service, clock: context.app.clock)
    }

    let bindings: [Binding] = [
        Binding(.left, .char("h"), does: .previousDay, help: "the night before"),
        Binding(.right, .char("l"), does: .nextDay, help: "the night after"),
        Binding(.up, .char("k"), does: .up, help: "newer night"),
        Binding(.down, .char("j"), does: .down, help: "older night"),
        Binding(.pageUp, does: .pageUp, help: "page up"),
        Binding(.pageDown, does: .pageDown, help: "page down"),
        Binding(.home, .char("g"), does: .top, help: "last night"),
        Binding(.end, .char("G"), does: .bottom, help: "oldest night loaded"),
        Binding(.char("/"), does: .find, help: "find a text (again: the next)"),
        Binding(.char("t"), does: .jumpToDate, help: "go to a date"),
    ] + KeyMap.span("time asleep over 90 days", "time asleep over 30 days")

    let hints = [Hint(.previousDay, "night"), Hint(.jumpToDate, "date"), Hint(.longerSpan, "span"), Hint(.help, "help"), Hint(.quit, "quit")]

    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var notice: String? { model.notice }
    var lastUpdated: Date? { model.lastUpdated }
    var changeKinds: Set<ChangeKind>? { [.hrv, .devices] }

    func open() -> Command? { refresh() }

    func refresh() -> Command { model.refresh() }

    func perform(_ action: Action) -> Command {
        switch action {
        case .previousDay, .down: model.moveSelection(by: 1)
        case .nextDay, .up: model.moveSelection(by: -1)
        case .pageUp: model.moveSelection(by: -table.pageSize)
        case .pageDown: model.moveSelection(by: table.pageSize)
        case .top: model.moveToTop()
        case .bottom: model.moveToBottom()
        case .longerSpan: model.showDays(90)
        case .shorterSpan: model.showDays(30)
        default: break
        }
        return .none
    }

    func layout(in area: Rect) {
        let layout = SleepView.Layout(area: area)
        table.layout(pageSize: layout.tableRows, selected: model.selectedIndex, count: model.rows.count, firstRowY: layout.firstRowY)
    }

    func select(at point: Point) -> Command {
        guard let index = table.row(atY: point.y) else { return .none }
        model.moveSelection(by: index - model.selectedIndex)
        return .none
    }

    func draw(on canvas: Canvas, in area: Rect) {
        SleepView(model: model, table: table).draw(on: canvas, in: area)
    }
}

extension SleepScreen: SeekableScreen {
    func seek(_ seek: TableSeek) -> Command { model.seek(seek) }
    var today: Day { context.app.clock.today }
}
