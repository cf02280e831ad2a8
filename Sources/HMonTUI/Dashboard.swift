import HealthViewModels
import Terminal

/// The dashboard without a terminal: turns keys into actions through the key table, runs them on the
/// view models, and draws a frame on any canvas. Slow work (anything that calls the service) runs as
/// a task so keys keep working; `onChange` asks for a redraw when it ends. The event loop (`App`) feeds
/// it real keys; tests and `hmon snapshot` feed it keys and read a `GridCanvas`.
@MainActor
public final class Dashboard {
    public let app: AppModel
    public private(set) var ui: UIState
    /// The canvas size of the last frame, for page sizes; a taller table loads more rows.
    public var size = Size(width: 80, height: 24) {
        didSet {
            guard size != oldValue else { return }
            app.weightRowsWanted = DashboardView.weightRowsVisible(in: size)
            fillWeightTable()
        }
    }
    /// Called when background work changed what is on screen.
    public var onChange: () -> Void = {}
    /// Called with the next theme's name when `T` is pressed; returns the name applied.
    public var cycleTheme: () -> String? = { nil }

    private var tasks: [Int: Task<Void, Never>] = [:]
    private var nextTaskID = 0

    public init(app: AppModel, themeName: String = "default") {
        self.app = app
        self.ui = UIState(themeName: themeName)
        app.weightRowsWanted = DashboardView.weightRowsVisible(in: size)
    }

    public enum Outcome: Sendable { case keepGoing, quit }

    /// Whether background work is running (the spinner turns, the event loop ticks).
    public var isBusy: Bool { !tasks.isEmpty || app.isRefreshing }

    public func draw(on canvas: Canvas) {
        size = canvas.size
        DashboardView(app: app, ui: ui).draw(on: canvas)
    }

    /// After the terminal grew, loads older readings until the table is full (or there are no more).
    private func fillWeightTable() {
        guard let weights = app.weights, app.screen == .weights, weights.lastUpdated != nil,
              weights.hasOlder, weights.rows.count < app.weightRowsWanted, tasks.isEmpty else { return }
        run { await weights.refresh() }
    }

    /// Advances the spinner; the event loop calls this on its tick while work is running.
    public func tick() { ui.spinnerFrame &+= 1 }

    /// Waits until all background work has finished (tests, snapshots, the first frame).
    public func settle() async {
        while let (_, task) = tasks.first {
            await task.value
        }
    }

    /// Runs `work` in the background and redraws when it ends.
    private func run(_ work: @escaping @MainActor () async -> Void) {
        let id = nextTaskID
        nextTaskID += 1
        tasks[id] = Task { [weak self] in
            await work()
            self?.tasks[id] = nil
            self?.onChange()
        }
    }

    /// The table that applies right now: an open prompt or question first, then the screen's keys.
    public var activeTable: [Binding] {
        if app.isConfirmingSignOut { return KeyMap.confirm }
        if hasPrompt { return KeyMap.prompt }
        if app.screen == .devices, app.devices.adding != nil { return KeyMap.prompt + [Binding(.up, does: .up, help: ""), Binding(.down, does: .down, help: "")] }
        return KeyMap.bindings(for: app.screen)
    }

    private var hasPrompt: Bool {
        switch app.screen {
        case .weights: app.weights?.prompt != nil
        case .energy: app.energy.prompt != nil
        default: false
        }
    }

    /// Whether typed characters go into a text field rather than being looked up as keys.
    private var isTyping: Bool {
        app.screen == .signIn || hasPrompt || app.devices.adding?.stage == .name && app.screen == .devices
    }

    public func handle(_ key: Key) -> Outcome {
        ui.notice = nil
        if ui.showsHelp {
            // Any key closes the help; q and Ctrl-C still quit.
            if key == .ctrl("c") || (key == .char("q") && app.screen != .signIn) { return .quit }
            ui.showsHelp = false
            return .keepGoing
        }
        let table = activeTable
        if let action = KeyMap.action(for: key, in: table) {
            return perform(action)
        }
        if isTyping, case .char(let character) = key {
            type(character)
        }
        return .keepGoing
    }

    private func type(_ character: Character) {
        switch app.screen {
        case .signIn: app.signIn.type(character)
        case .weights: app.weights?.promptType(character)
        case .energy: app.energy.promptType(character)
        case .devices: app.devices.addDeviceType(character)
        }
    }

    private var visibleRows: Int { DashboardView.weightRowsVisible(in: size) }

    // swiftlint:disable:next cyclomatic_complexity
    public func perform(_ action: Action) -> Outcome {
        let app = self.app
        switch action {
        case .quit: return .quit
        case .help: ui.showsHelp.toggle()
        case .cycleTheme:
            if let name = cycleTheme() {
                ui.themeName = name
                ui.notice = "theme \(name)"
            }
        case .refresh:
            run { await app.refreshCurrent() }
        case .back:
            if app.screen == .devices, app.devices.adding != nil { app.devices.cancelAddDevice() } else { app.back() }
        case .nextTab: run { await app.cycle(forward: true) }
        case .previousTab: run { await app.cycle(forward: false) }
        case .showDevices: run { await app.show(.devices) }
        case .showWeights: run { await app.show(.weights) }
        case .showEnergy: run { await app.show(.energy) }
        case .up, .down, .pageUp, .pageDown, .top, .bottom:
            move(action)
        case .open: run { await app.openSelectedDevice() }
        case .addDevice: app.devices.openAddDevice()
        case .signOut: app.askSignOut()
        case .confirm: run { await app.signOut() }
        case .toggleUnit: app.weights?.toggleUnit()
        case .addReading: app.weights?.openPrompt()
        case .previousDay: run { await app.energy.previousDay() }
        case .nextDay: run { await app.energy.nextDay() }
        case .today: run { await app.energy.goToToday() }
        case .logEnergy: app.energy.openPrompt()
        case .submit: submit()
        case .cancel: cancel()
        case .nextField: app.signIn.focusNext()
        case .previousField: app.signIn.focusPrevious()
        case .deleteBackward: deleteBackward()
        case .switchForm: app.signIn.setMode(app.signIn.mode == .signIn ? .createAccount : .signIn)
        }
        return .keepGoing
    }

    private func move(_ action: Action) {
        switch app.screen {
        case .devices:
            if app.devices.adding != nil {
                app.devices.moveTypeSelection(by: action == .up ? -1 : 1)
                return
            }
            switch action {
            case .up: app.devices.moveSelection(by: -1)
            case .down: app.devices.moveSelection(by: 1)
            case .top: app.devices.moveSelection(by: -app.devices.rows.count)
            case .bottom: app.devices.moveSelection(by: app.devices.rows.count)
            default: break
            }
            app.devices.clearProblem()
            let devices = app.devices
            run { await devices.loadRecent() }
        case .weights:
            guard let weights = app.weights else { return }
            let rows = visibleRows
            switch action {
            case .up: run { await weights.moveSelection(by: -1, visibleRows: rows) }
            case .down: run { await weights.moveSelection(by: 1, visibleRows: rows) }
            case .pageUp: run { await weights.moveSelection(by: -rows, visibleRows: rows) }
            case .pageDown: run { await weights.moveSelection(by: rows, visibleRows: rows) }
            case .top: weights.moveToTop(visibleRows: rows)
            case .bottom: weights.moveToBottom(visibleRows: rows)
            default: break
            }
        default: break
        }
    }

    private func submit() {
        let app = self.app
        switch app.screen {
        case .signIn: run { await app.submitSignIn() }
        case .weights: run { await app.weights?.submitPrompt() }
        case .energy: run { await app.energy.submitPrompt() }
        case .devices: run { await app.devices.submitAddDevice() }
        }
    }

    private func cancel() {
        if app.isConfirmingSignOut { app.cancelSignOut(); return }
        switch app.screen {
        case .weights: app.weights?.cancelPrompt()
        case .energy: app.energy.cancelPrompt()
        case .devices: app.devices.cancelAddDevice()
        case .signIn: break
        }
    }

    private func deleteBackward() {
        switch app.screen {
        case .signIn: app.signIn.deleteBackward()
        case .weights: app.weights?.promptDeleteBackward()
        case .energy: app.energy.promptDeleteBackward()
        case .devices: app.devices.addDeviceDeleteBackward()
        }
    }

    // MARK: Live updates

    /// Looks for changes in the store (cheap) and refreshes the screen when there are some.
    /// Returns nil when the service cannot tell (a server): the caller polls on its own schedule.
    public func checkForChanges() async -> Bool? {
        guard tasks.isEmpty else { return false }
        let changed = await app.storeChanged()
        if changed == true {
            await app.refreshCurrent()
        }
        return changed
    }

    /// A timed refresh for services without a change token.
    public func poll() {
        guard tasks.isEmpty, app.screen != .signIn else { return }
        let app = self.app
        run { await app.refreshCurrent() }
    }
}
