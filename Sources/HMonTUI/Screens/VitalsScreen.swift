import Foundation
import HealthCore
import HealthModel
import HealthViewModels
import Terminal

extension ScreenID {
    public static let vitals = ScreenID("vitals")
}

/// Vital signs: the newest readings of blood pressure (with its 2017 ACC/AHA category), SpO2, breathing
/// rate, body temperature and a wrist's temperature change, newest first, in the person's units. Read only:
/// the readings come from the sources that measure them.
@MainActor
final class VitalsScreen: DashboardScreen {
    let id = ScreenID.vitals
    let title = "Vitals"
    private let context: ScreenContext
    private(set) var model: VitalsModel
    private(set) var table = TableState()

    init(_ context: ScreenContext) {
        self.context = context
        model = VitalsModel(service: context.app.service, clock: context.app.clock)
    }

    let bindings: [Binding] = [
        Binding(.up, .char("k"), does: .up, help: "newer reading"),
        Binding(.down, .char("j"), does: .down, help: "older reading"),
        Binding(.pageUp, does: .pageUp, help: "page up"),
        Binding(.pageDown, does: .pageDown, help: "page down"),
        Binding(.ctrl("u"), does: .halfPageUp, help: "half a page up"),
        Binding(.ctrl("d"), does: .halfPageDown, help: "half a page down"),
        Binding(.home, .char("g"), does: .top, help: "newest reading"),
        Binding(.end, .char("G"), does: .bottom, help: "oldest reading loaded"),
    ]

    let hints = [Hint(.refresh, "refresh"), Hint(.help, "help"), Hint(.quit, "quit")]

    var isRefreshing: Bool { model.isRefreshing }
    var problem: String? { model.problem }
    var notice: String? { model.notice }
    var lastUpdated: Date? { model.lastUpdated }
    /// What a new vital sign changes (each kind's screens: a watch's are energy's, a cuff's or a scale's
    /// weights'), and a renamed device, which the source column names.
    var changeKinds: Set<ChangeKind>? { Set(VitalSign.allCases.flatMap(\.kind.changes)).union([.devices, .profile]) }

    func open() -> Command? { refresh() }

    func refresh() -> Command { model.refresh() }

    func perform(_ action: Action) -> Command {
        switch action {
        case .up: model.moveSelection(by: -1)
        case .down: model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -table.pageSize)
        case .pageDown: model.moveSelection(by: table.pageSize)
        case .halfPageUp: model.moveSelection(by: -table.halfPage)
        case .halfPageDown: model.moveSelection(by: table.halfPage)
        case .top: model.moveToTop()
        case .bottom: model.moveToBottom()
        default: break
        }
        return .none
    }

    func layout(in area: Rect) {
        let layout = VitalsView.Layout(area: area)
        table.layout(pageSize: layout.tableRows, selected: model.selectedIndex, count: model.rows.count, firstRowY: layout.firstRowY)
    }

    func select(at point: Point) -> Command {
        guard let index = table.row(atY: point.y) else { return .none }
        model.moveSelection(by: index - model.selectedIndex)
        return .none
    }

    func draw(on canvas: Canvas, in area: Rect) {
        VitalsView(model: model, table: table).draw(on: canvas, in: area)
    }
}
