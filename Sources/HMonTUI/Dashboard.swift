import Foundation
import HealthCore
import HealthViewModels
import Terminal

/// The dashboard without a terminal, in bubbletea's shape: a key becomes an action through the key table
/// that applies; the action changes state at once and may return a `Command`; the command's loads run as
/// tasks and come back as `Loaded` messages through `inbox`, which the event loop (`App`) hands to
/// `receive`. Frames are drawn from state only. Tests and `hmon snapshot` drive it with keys and `settle()`
/// and read a `GridCanvas`.
@MainActor
public final class Dashboard {
    public let app: AppModel
    public internal(set) var ui: UIState
    /// Answers of loads, in the order they finish; the event loop reads them (or `settle()` does).
    public let inbox: AsyncStream<Loaded>
    /// The next theme when `T` is pressed: its name, nil when there is none; throws when it cannot load.
    public var cycleTheme: () throws -> String? = { nil }
    /// Keeps the theme `T` chose for the next launch (config.toml); throws when it cannot.
    public var saveTheme: (String) throws -> Void = { _ in }
    /// Set when the screen draws without colour (NO_COLOR, `--no-color`, a monochrome terminal): T then
    /// says why it changes nothing instead of naming a theme nobody can see.
    public var drawsWithoutColour = false

    private let runner: LoadRunner
    /// R's request that the server read the linked sources (the accounts of the pulled sources) now.
    private let linkedSources = LoadSlot(model: "linked sources")
    private var tabs: [any DashboardScreen] = []
    private var tabsMadeFor = -1
    private lazy var signInScreen = SignInScreen(app: app)
    /// The size of the last layout, for page sizes before the first frame.
    private(set) var size = Size(width: 80, height: 24)
    /// The status bar's `/` or `t` prompt, while open.
    private(set) var seekPrompt: TableSeekPrompt?
    /// The text `/` found last, offered again so Enter finds the next row showing it.
    private var lastFound = ""
    /// The keys config.toml's `[keys]` gives actions instead of their defaults.
    public private(set) var keyRemap = KeyRemap()
    /// The command palette (`:`), while open.
    var palette: CommandPalette?
    /// The palette's entries run last, newest first: offered first next time.
    var recentPaletteEntries: [String] = []

    public init(app: AppModel, themeName: String = "default") {
        self.app = app
        self.ui = UIState(themeName: themeName)
        let (inbox, continuation) = AsyncStream.makeStream(of: Loaded.self)
        self.inbox = inbox
        self.runner = LoadRunner { continuation.yield($0) }
    }

    /// `suspend`: give the terminal back and stop until `fg` (Ctrl-Z), which only the event loop can do.
    public enum Outcome: Sendable { case keepGoing, quit, suspend }

    // MARK: Screens

    /// The screens of the signed-in user, made from the registry (anew after each sign-in).
    public var screens: [any DashboardScreen] {
        if tabsMadeFor != app.signInCount {
            tabsMadeFor = app.signInCount
            let context = ScreenContext(app: app, show: { [unowned self] id in show(id) })
            tabs = ScreenRegistry.tabs.map { $0.make(context) }
        }
        return tabs
    }

    /// The screen on show.
    public var current: any DashboardScreen {
        if app.screen == .signIn { return signInScreen }
        return screens.first { $0.id == app.screen } ?? screens[0]
    }

    /// The keys that work on every screen after sign-in, with `1`…`n` for the registered tabs.
    public var globalBindings: [Binding] {
        keyRemap.applied(to: KeyMap.global(tabs: screens.enumerated().map { (number: $0.offset + 1, title: $0.element.title) }))
    }

    /// A screen's own keys, as `[keys]` leaves them.
    func bindings(of screen: any DashboardScreen) -> [Binding] {
        keyRemap.applied(to: screen.bindings)
    }

    /// config.toml's `[keys]` at start: taken, and what could not be said in the status bar until an edit
    /// fixes it.
    public func applyKeys(of config: DashboardConfig) {
        say(configProblems: takeKeys(of: config))
    }

    /// Takes `config`'s `[keys]`; what could not be taken, as read from the file or as resolved against the
    /// key tables, each with its place.
    public func takeKeys(of config: DashboardConfig) -> [String] {
        applyKeySettings(config.keys) + config.keyProblems
    }

    /// The first of `problems` (and how many more) in the status bar until an edit of config.toml clears them.
    func say(configProblems problems: [String]) {
        ui.settingsProblem = problems.first.map { $0 + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "") }
    }

    /// Takes config.toml's `[keys]`: the actions it names get its keys, on every screen; what cannot be taken
    /// (an unknown action or key, a key another action has) is returned, said with its place, and that action
    /// keeps its defaults.
    @discardableResult
    public func applyKeySettings(_ settings: [KeySetting]) -> [String] {
        keyRemap = KeyRemap()
        let tables = [("Everywhere", globalBindings)] + screens.map { ($0.title, $0.bindings) }
        let (remap, problems) = KeyRemap.resolve(settings, tables: tables, screens: screens.map(\.id))
        keyRemap = remap
        return problems
    }

    /// The table that applies right now: the sign-out question, an open prompt or picker, else the
    /// screen's own keys and the global ones it does not shadow.
    public var activeTable: [Binding] {
        if app.isConfirmingSignOut { return KeyMap.confirm }
        if app.screen == .signIn { return KeyMap.signIn }
        if app.profileForm != nil { return KeyMap.profileForm }
        if palette != nil { return KeyMap.palette }
        if let seekPrompt { return seekPrompt.kind == .text ? KeyMap.findPrompt : KeyMap.prompt }
        if let modal = current.modal { return modal.bindings }
        return KeyMap.merged(bindings(of: current), globalBindings)
    }

    /// The help overlay's sections: what is open, the screen's own keys, then those that work everywhere.
    public var helpSections: [(title: String, bindings: [Binding])] {
        if app.screen == .signIn { return [("Sign in", KeyMap.signIn)] }
        if let form = app.profileForm { return [(form.title, KeyMap.profileForm)] }
        let screen = current
        let own = bindings(of: screen)
        let all = KeyMap.merged(own, globalBindings)
        var sections = [(screen.title, own), ("Everywhere", Array(all.dropFirst(own.count)))]
        if let modal = screen.modal { sections.insert(modal, at: 0) }
        if let seekPrompt { sections.insert((seekPrompt.kind == .text ? "Finding a text" : "Going to a date", KeyMap.prompt), at: 0) }
        if palette != nil { sections.insert(("The palette", KeyMap.palette), at: 0) }
        return sections
    }

    /// Shows a screen by name (a tab key, Enter on a device, a snapshot): lays it out, asks it what it needs,
    /// and moves there unless it cannot open.
    public func show(_ id: ScreenID) -> Command {
        guard app.screen != .signIn, let screen = screens.first(where: { $0.id == id }) else { return .none }
        screen.layout(in: Self.contentArea(of: size))
        guard let command = screen.open() else { return .none }
        app.go(to: id)
        return command
    }

    // MARK: Work in flight

    /// Whether loads are in flight (the spinner turns, the event loop keeps ticking).
    public var isBusy: Bool { runner.isBusy }

    /// Runs a command's loads; their answers come back through `inbox`.
    public func run(_ command: Command) { runner.run(command) }

    /// An answer came back: its model applies it (or drops it as stale), and what that starts runs.
    public func receive(_ loaded: Loaded) {
        runner.received()
        run(loaded.deliver())
    }

    /// Waits until every load, and every load those start, has been answered and applied (tests,
    /// snapshots). Not for use while `App` reads the inbox.
    public func settle() async {
        guard isBusy else { return }
        for await loaded in inbox {
            receive(loaded)
            if !isBusy { return }
        }
    }

    // MARK: Keys

    public func handle(_ key: Key) -> Outcome {
        ui.notice = nil
        // Ctrl-Z suspends wherever it is pressed, typing included, as the terminal's own job control would.
        if key == .ctrl("z") { return .suspend }
        if ui.showsHelp { return handleInHelp(key) }
        if case .mouse(let event) = key {
            return handleMouse(event)
        }
        if let action = KeyMap.action(for: key, in: activeTable) {
            return perform(action)
        }
        if let form = app.profileForm, case .char(let character) = key {
            form.type(character)
            return .keepGoing
        }
        if palette != nil, case .char(let character) = key {
            palette?.type(character)
            return .keepGoing
        }
        if seekPrompt != nil, case .char(let character) = key {
            seekPrompt?.field.insert(character)
            seekPrompt?.problem = nil
            return .keepGoing
        }
        if current.isTyping, case .char(let character) = key {
            current.type(character)
        }
        return .keepGoing
    }

    /// The help's keys: letters narrow it to the bindings that hold them, `@` then a key shows what that
    /// key does, Backspace widens, ↑/↓ and PgUp/PgDn turn its pages on a small terminal; Esc, Enter, F1 or
    /// `?` on an unfiltered help close it, Ctrl-C quits.
    private func handleInHelp(_ key: Key) -> Outcome {
        if key == .ctrl("c") { return .quit }
        if ui.helpFilter == .awaitingKey {
            if case .mouse = key { return .keepGoing }
            ui.helpFilter = .key(key)
            return .keepGoing
        }
        let typed: String = if case .words(let words)? = ui.helpFilter { words } else { "" }
        let pages = HelpOverlay(sections: shownHelpSections, title: nil)
            .pages(in: Rect(x: 0, y: 0, width: size.width, height: size.height))
        switch key {
        case .down, .pageDown:
            ui.helpPage = min(ui.helpPage + 1, pages - 1)
        case .up, .pageUp:
            ui.helpPage = max(ui.helpPage - 1, 0)
        case .mouse:
            break
        case .backspace where ui.helpFilter != nil:
            ui.helpFilter = typed.count > 1 ? .words(String(typed.dropLast())) : nil
        case .char("@") where typed.isEmpty:
            ui.helpFilter = .awaitingKey
        case .char("?") where ui.helpFilter == nil:
            ui.showsHelp = false
        case .char(let character) where !(typed.isEmpty && character == " "):
            ui.helpFilter = .words(typed + String(character))
        default:
            ui.showsHelp = false
        }
        return .keepGoing
    }

    /// The help's sections as the overlay shows them: narrowed by the filter while there is one.
    public var shownHelpSections: [(title: String, bindings: [Binding])] {
        ui.helpFilter?.narrowed(helpSections) ?? helpSections
    }

    /// A click on a tab shows that screen; the wheel moves through the screen's list as ↑ and ↓ do, three
    /// rows a notch; a click in a list selects that row (screens that have one, see `select(at:)`).
    private func handleMouse(_ event: MouseEvent) -> Outcome {
        if palette != nil { return clickInPalette(event) }
        guard app.screen != .signIn, current.modal == nil, seekPrompt == nil, !app.isConfirmingSignOut, app.profileForm == nil
        else { return .keepGoing }
        switch event.action {
        case .wheelUp, .wheelDown:
            let key: Key = event.action == .wheelUp ? .up : .down
            var outcome = Outcome.keepGoing
            for _ in 0..<Self.rowsPerWheelNotch where outcome == .keepGoing { outcome = handle(key) }
            return outcome
        case .click where event.y == 0:
            if let tab = TabBar(dashboard: self).tab(atColumn: event.x, width: size.width), tab.id != app.screen {
                run(show(tab.id))
            }
        case .click:
            run(current.select(at: Point(x: event.x, y: event.y)))
        }
        return .keepGoing
    }

    static let rowsPerWheelNotch = 3

    public func perform(_ action: Action) -> Outcome {
        if let form = app.profileForm, action != .quit, action != .help {
            performInProfile(action, form: form)
            return .keepGoing
        }
        if palette != nil, action != .quit, action != .help {
            return performInPalette(action)
        }
        if seekPrompt != nil, action != .quit, action != .help {
            performInSeek(action)
            return .keepGoing
        }
        switch action {
        case .quit:
            return .quit
        case .suspend:
            return .suspend
        case .help:
            ui.showsHelp.toggle()
        case .editProfile where current.modal == nil && app.screen != .signIn:
            run(app.openProfile())
        case .cycleTheme:
            switchTheme()
        case .confirm where app.isConfirmingSignOut:
            run(app.signOut())
        case .cancel where app.isConfirmingSignOut:
            app.cancelSignOut()
        case .refresh where current.modal == nil:
            run(refreshCurrent() + pollLinkedSources())
        case .undo where current.modal == nil && app.screen != .signIn:
            run(app.undoLastChange { [unowned self] said, kind in
                ui.notice = said + undoneElsewhere(kind)
                return refreshCurrent()
            })
        case .palette where current.modal == nil && app.screen != .signIn:
            palette = CommandPalette()
        case .find where current is any SeekableScreen && current.modal == nil:
            seekPrompt = .find(again: lastFound)
        case .jumpToDate where current is any SeekableScreen && current.modal == nil:
            seekPrompt = .toDay
        case .signOut where current.modal == nil && app.screen != .signIn:
            app.askSignOut()
        case .back where current.modal == nil:
            // The screen Esc returns to reloads, as a tab key's would: it may have changed while away.
            let before = app.screen
            app.back()
            if app.screen != before { run(refreshCurrent()) }
        case .nextTab where app.screen != .signIn && current.modal == nil:
            run(cycle(forward: true))
        case .previousTab where app.screen != .signIn && current.modal == nil:
            run(cycle(forward: false))
        default:
            if let tab = screens.indices.first(where: { action == .showTab($0 + 1) }) {
                run(show(screens[tab].id))
            } else {
                run(current.perform(action))
            }
        }
        return .keepGoing
    }

    /// The profile form's keys: Enter saves it (and the screen on show reloads in the new units), Esc closes it.
    private func performInProfile(_ action: Action, form: ProfileModel) {
        switch action {
        case .submit: run(app.submitProfile { [unowned self] in refreshCurrent() })
        case .nextField: form.focusNext()
        case .previousField: form.focusPrevious()
        // ←/→ change a choice, or move the cursor in a text field (each ignores the other kind of field).
        case .chooseNext: form.choose(step: 1); form.edit(.right)
        case .choosePrevious: form.choose(step: -1); form.edit(.left)
        case .cancel: app.closeProfile()
        default: if let edit = TextEdit(action) { form.edit(edit) }
        }
    }

    /// The `/` or `t` prompt's keys: Enter seeks (a text that is no date stays to be fixed), Esc closes it.
    private func performInSeek(_ action: Action) {
        guard let prompt = seekPrompt else { return }
        switch action {
        case .submit:
            guard let screen = current as? any SeekableScreen else {
                seekPrompt = nil
                return
            }
            switch prompt.seek(today: screen.today) {
            case .success(let seek):
                if case .text(let text) = seek { lastFound = text }
                seekPrompt = nil
                run(screen.seek(seek))
            case .failure(let typo):
                seekPrompt?.problem = typo.message
            }
        case .cancel:
            seekPrompt = nil
        case .previousField:
            seekPrompt?.recallLast()
        default:
            if let edit = TextEdit(action) {
                seekPrompt?.field.apply(edit)
                seekPrompt?.problem = nil
            }
        }
    }

    /// R on a dashboard connected to a server also asks it to read the user's linked sources (the accounts
    /// of the pulled sources) now; when that added readings, the screen reloads once more to show them. A failure is left
    /// unsaid: the reload itself reports a server that cannot be reached.
    private func pollLinkedSources() -> Command {
        guard let polling = app.service as? any LinkedSourcePolling else { return .none }
        return Command(linkedSources.load("poll") {
            try await polling.pollLinkedSources()
        } apply: { [unowned self] result in
            if case .success(let added) = result, added > 0 { return refreshCurrent() }
            return .none
        })
    }

    /// R, and live updates: the screen reloads, and the change token is read after, so the reload's own
    /// writes do not count as news.
    private func refreshCurrent() -> Command { current.refresh() + app.rememberChangeToken() }

    /// Tab / Shift-Tab: the next screen that can open (one whose `open` says it cannot,
    /// is skipped rather than stopped on).
    private func cycle(forward: Bool) -> Command {
        let ids = screens.map(\.id)
        guard let start = ids.firstIndex(of: app.screen) else { return .none }
        let devicesHadProblem = app.devices.problem != nil
        for step in 1..<ids.count {
            let index = (start + (forward ? step : ids.count - step)) % ids.count
            let command = show(ids[index])
            if app.screen == ids[index] { return command }
            // It could not open: Tab passes over it quietly (its reason is for a key that names it).
            if !devicesHadProblem { app.devices.clearProblem() }
        }
        return .none
    }

    private func switchTheme() {
        guard !drawsWithoutColour else {
            ui.notice = "no colours here (NO_COLOR, --no-color or the terminal): a theme has nothing to change"
            return
        }
        do {
            if let name = try cycleTheme() {
                ui.themeName = name
                ui.themeProblem = nil
                do {
                    try saveTheme(name)
                    ui.notice = "theme \(name), kept for next time"
                } catch {
                    ui.notice = "theme \(name) (not kept for next time: \(error))"
                }
            }
        } catch {
            ui.themeProblem = "\(error): T tries the next theme"
        }
    }

    // MARK: Time and size

    /// Advances the spinner; the event loop calls this ten times a second while work is in flight.
    public func tick() { ui.spinnerFrame &+= 1 }

    /// Once a second: relative times ("5 min ago") move on.
    public func secondPassed() {
        app.devices.updateAges()
    }

    /// Once a second: live updates of the screen on show (see `AppModel.liveUpdate`).
    public func liveUpdate(pollInterval: TimeInterval) {
        guard current.modal == nil else { return }
        run(app.liveUpdate(pollInterval: pollInterval) { [unowned self] in refreshCurrent() })
    }

    /// The server's change feed spoke (see `AppModel.changeFeed`): the screen on show reloads when it may.
    public func changeFeed(_ event: ChangeFeedEvent) {
        // A change the screen on show does not show (a meal on Weights) costs it nothing.
        if case .changed(let kinds?) = event, let shown = current.changeKinds, shown.isDisjoint(with: kinds) { return }
        run(app.changeFeed(event, canReloadNow: current.modal == nil) { [unowned self] in refreshCurrent() })
    }

    /// The terminal changed size: lay the screen out anew and load what a bigger screen shows.
    public func resize(to newSize: Size) {
        guard newSize != size else { return }
        size = newSize
        guard app.screen != .signIn else { return }
        current.layout(in: Self.contentArea(of: size))
        run(current.resized())
    }

    /// Where screens draw: between the tab bar and the status bar.
    static func contentArea(of size: Size) -> Rect {
        Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 2))
    }

    // MARK: Frames

    /// Lays the screen out for `size` and draws the whole frame into a new grid.
    public func frame(size: Size) -> GridCanvas {
        let canvas = GridCanvas(size: size)
        current.layout(in: Self.contentArea(of: size))
        DashboardView(dashboard: self).draw(on: canvas)
        return canvas
    }
}
