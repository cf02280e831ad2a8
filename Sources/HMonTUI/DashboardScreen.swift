import HealthModel
import Foundation
import HealthCore
import HealthViewModels
import Terminal

/// What a screen can ask of the dashboard around it.
@MainActor
public struct ScreenContext {
    /// The shared state: the service, the clock, the user, the devices, where we are.
    public let app: AppModel
    /// Shows another screen (as its tab key would) and returns what opening it needs.
    public let show: @MainActor (ScreenID) -> Command
}

/// One screen of the dashboard as a unit: its name, its model, its view, its keys and its hints. The tab
/// bar, the number keys, Tab order, the help overlay, `hmon snapshot --screen` and the reference-frame tests
/// are all made from the registered screens (`ScreenRegistry`), so a new screen is one file plus one line.
///
/// A screen never draws as a side effect of anything but `draw`, and `draw` changes nothing: `layout`
/// (called before each frame) places scroll positions in the screen's own view state, and whatever needs the
/// service comes back as a `Command` for the dashboard to run.
@MainActor
public protocol DashboardScreen: AnyObject {
    var id: ScreenID { get }
    /// The tab's title: "Weights".
    var title: String { get }
    /// The screen's own keys; the dashboard adds the global ones it does not shadow.
    var bindings: [Binding] { get }
    /// Every key the screen can have, whatever it shows now, for docs/dashboard.md (`hmon keys --markdown`):
    /// its `bindings`, unless they depend on what it shows.
    var allBindings: [Binding] { get }
    /// The status bar's key hints, most important last (the first ones give way on a narrow terminal).
    var hints: [Hint] { get }
    /// A table that replaces the screen's keys while open (a prompt, a picker), with its help title.
    var modal: (title: String, bindings: [Binding])? { get }
    /// Whether printable keys go into a text field rather than being looked up as keys.
    var isTyping: Bool { get }
    var isRefreshing: Bool { get }
    var problem: String? { get }
    /// Something the screen did that the person should hear of once ("made a food log"), for the status bar.
    var notice: String? { get }
    var lastUpdated: Date? { get }
    /// The kinds of change this screen shows, so a change event of other kinds does not reload it; nil
    /// reloads on every change.
    var changeKinds: Set<ChangeKind>? { get }

    /// The screen is about to show (a tab key, Tab, Enter on a device): what it needs loaded. Nil when it
    /// cannot open now; it has then said why (through a problem on the screen that asked).
    func open() -> Command?
    /// R, and live updates: reload what the screen shows.
    func refresh() -> Command
    /// A key's action that the dashboard does not handle itself.
    func perform(_ action: Action) -> Command
    /// A printable key while `isTyping`.
    func type(_ character: Character)
    /// Places the screen's view state (page sizes, scroll offsets) for `area`, before a frame is drawn.
    func layout(in area: Rect)
    /// After the terminal changed size (and `layout` ran): what a bigger screen needs loaded.
    func resized() -> Command
    /// A click at `point` (screen cells, as laid out last): select the row there, as ↑/↓ would.
    func select(at point: Point) -> Command
    func draw(on canvas: Canvas, in area: Rect)
}

extension DashboardScreen {
    public var changeKinds: Set<ChangeKind>? { nil }
    public var allBindings: [Binding] { bindings }
    public var modal: (title: String, bindings: [Binding])? { nil }
    public var isTyping: Bool { false }
    public var notice: String? { nil }
    public func type(_ character: Character) {}
    public func layout(in area: Rect) {}
    public func resized() -> Command { .none }
    public func select(at point: Point) -> Command { .none }
}
