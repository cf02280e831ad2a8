import Foundation
import Synchronization
import HealthCore
import HealthViewModels
import Terminal

/// The event loop: one `async` loop on the main actor over one stream of events (keys ready, resize, the
/// once-a-second tick, answers of loads, spinner frames). Keys are drained with ncurses on the main actor;
/// whatever calls the service runs as a task (see `Dashboard`) and comes back as an event. After each
/// event the whole frame is drawn into a grid and the screen writes only the cells that changed, so a
/// tick that changes nothing writes nothing to the terminal.
///
/// Live updates: on a local store the tick asks for the store's change token (a cheap `data_version`
/// read) and refreshes only when it moved; against a server the server's change feed says when (an
/// event comes through the same stream and refreshes at once); a server without one is polled every
/// `refreshInterval` seconds. When nothing happens the loop sleeps in `poll()`: idle hmon uses no CPU.
@MainActor
public final class App {
    public struct Options: Sendable {
        /// Seconds between polls when the service has no change token (a server).
        public var refreshInterval: Double
        /// Quit as soon as the first complete frame is on screen (for launch benchmarks).
        public var exitAfterFirstFrame: Bool
        /// Watch the store for changes made elsewhere (off only for tests of R).
        public var liveUpdates: Bool
        /// A file to note each event the loop handled in, a line each (`tick idle`, `loaded busy`): how a
        /// test that drives the real binary knows that the loop ticked or went idle, instead of sleeping.
        public var eventTrace: URL?

        /// config.toml, read again each second while the dashboard runs, its edits applied at once.
        public var settings: LiveSettings?

        public init(refreshInterval: Double = 30, exitAfterFirstFrame: Bool = false, liveUpdates: Bool = true,
                    eventTrace: URL? = nil, settings: LiveSettings? = nil) {
            self.settings = settings
            self.refreshInterval = refreshInterval
            self.exitAfterFirstFrame = exitAfterFirstFrame
            self.liveUpdates = liveUpdates
            self.eventTrace = eventTrace
        }
    }

    enum Event: Sendable {
        case terminal(TerminalEvent)
        /// A load came back.
        case loaded(Loaded)
        /// Time to turn the spinner.
        case spin
        /// The server's change feed spoke.
        case feed(ChangeFeedEvent)

        /// The event's word in the event trace.
        var traceName: String {
            switch self {
            case .terminal(.keyReady): return "key"
            case .terminal(.resize): return "resize"
            case .terminal(.tick): return "tick"
            case .loaded: return "loaded"
            case .spin: return "spin"
            case .feed: return "feed"
            }
        }
    }

    private let screen: Screen
    private let dashboard: Dashboard
    private let themes: ThemeSwitcher
    private var options: Options
    private var continuation: AsyncStream<Event>.Continuation?
    private var spinnerTask: Task<Void, Never>?

    init(screen: Screen, dashboard: Dashboard, themes: ThemeSwitcher, options: Options) {
        self.screen = screen
        self.dashboard = dashboard
        self.themes = themes
        self.options = options
    }

    /// Opens the screen, runs the dashboard until the user quits, and restores the terminal on every way out.
    public static func run(dashboard: Dashboard, screenOptions: Screen.Options, themes: ThemeSwitcher,
                           options: Options) async throws {
        try await Screen.run(screenOptions) { screen in
            let app = App(screen: screen, dashboard: dashboard, themes: themes, options: options)
            await app.loop()
        }
    }

    private func loop() async {
        // Unbounded: an answer must never be lost, or the dashboard would wait for it for ever.
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        self.continuation = continuation
        dashboard.drawsWithoutColour = screen.colorDepth == .monochrome
        dashboard.cycleTheme = { [themes, screen] in
            guard let theme = try themes.next() else { return nil }
            screen.setTheme(theme)
            return theme.name
        }
        let terminalEvents = screen.events(tick: .seconds(1))
        let inbox = dashboard.inbox
        // A server's change feed, held open while the dashboard runs (nil on a local store: the tick looks
        // at its change token). Its events come through the same stream, so only this loop touches ncurses.
        let changes = options.liveUpdates ? dashboard.app.service.changes() : nil
        let forwarders = [
            Task {
                for await event in terminalEvents { continuation.yield(.terminal(event)) }
                continuation.finish()
            },
            Task {
                for await loaded in inbox { continuation.yield(.loaded(loaded)) }
            },
        ] + (changes.map { changes in
            [Task { for await change in changes { continuation.yield(.feed(change)) } }]
        } ?? [])
        defer {
            for forwarder in forwarders { forwarder.cancel() }
            spinnerTask?.cancel()
            continuation.finish()
        }

        let trace = options.eventTrace.flatMap(EventTrace.init(appendingTo:))
        dashboard.resize(to: screen.size)
        draw()
        trace?.note("start", busy: dashboard.isBusy)
        if options.exitAfterFirstFrame && !dashboard.isBusy { return }
        for await event in events {
            switch event {
            case .terminal(.keyReady):
                for key in screen.readKeys() {
                    if key == .resize {
                        dashboard.resize(to: screen.size)
                        continue
                    }
                    switch dashboard.handle(key) {
                    case .quit: return
                    case .suspend:
                        screen.suspend()
                        // Back from `fg`: the terminal may have changed size while hmon was stopped.
                        screen.updateSize()
                        dashboard.resize(to: screen.size)
                    case .keepGoing: break
                    }
                }
            case .terminal(.resize):
                screen.updateSize()
                dashboard.resize(to: screen.size)
            case .terminal(.tick):
                applySettingsIfEdited()
                dashboard.secondPassed()
                if options.liveUpdates { dashboard.liveUpdate(pollInterval: options.refreshInterval) }
            case .loaded(let loaded):
                dashboard.receive(loaded)
            case .spin:
                dashboard.tick()
            case .feed(let change):
                dashboard.changeFeed(change)
            }
            startSpinnerIfBusy()
            draw()
            trace?.note(event.traceName, busy: dashboard.isBusy)
            if options.exitAfterFirstFrame && !dashboard.isBusy { return }
        }
    }

    /// config.toml edited: its theme, keys, refresh and mouse apply now, each where no flag or variable
    /// chose it; a file that cannot be used keeps the settings before and says why until it can.
    private func applySettingsIfEdited() {
        guard var settings = options.settings, let edit = settings.edit() else { return }
        options.settings = settings
        switch edit {
        case .failure(let problem):
            dashboard.ui.settingsProblem = "\(problem.description): kept the settings before"
        case .success(let config):
            dashboard.ui.settingsProblem = nil
            let before = (dashboard.keyRemap, dashboard.ui.themeName, options.refreshInterval)
            var said = dashboard.takeKeys(of: config)
            if settings.themeFromFile {
                let name = config.theme ?? "default"
                if name != dashboard.ui.themeName {
                    do {
                        let theme = try settings.catalog.theme(named: name)
                        screen.setTheme(theme)
                        dashboard.ui.themeName = theme.name
                        dashboard.ui.themeProblem = nil
                    } catch {
                        said.append("\(error)")
                    }
                }
            }
            if settings.refreshFromFile { options.refreshInterval = config.refreshSeconds ?? 30 }
            if settings.mouseFromFile { screen.setMouse(config.mouse != false) }
            dashboard.say(configProblems: said)
            // `T` writes the file itself: reading back what it wrote changes nothing and says nothing.
            let changed = before != (dashboard.keyRemap, dashboard.ui.themeName, options.refreshInterval)
            if said.isEmpty, changed { dashboard.ui.notice = "\(settings.file.lastPathComponent) applied" }
        }
    }

    private func draw() {
        screen.present(dashboard.frame(size: screen.size))
    }

    /// Turns the spinner ten times a second while loads are in flight, and stops when they end.
    private func startSpinnerIfBusy() {
        guard dashboard.isBusy, spinnerTask == nil, let continuation else { return }
        spinnerTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                guard let self, self.dashboard.isBusy else { break }
                continuation.yield(.spin)
            }
            self?.spinnerTask = nil
        }
    }
}

/// Cycles through the theme catalog's names for `T`, starting after the current one.
public final class ThemeSwitcher: Sendable {
    private let catalog: ThemeCatalog
    private let names: [String]
    private let current: Mutex<Int>

    public init(catalog: ThemeCatalog, current name: String) {
        self.catalog = catalog
        let names = catalog.names
        self.names = names
        self.current = Mutex(names.firstIndex(of: name) ?? -1)
    }

    /// The next theme; nil when the catalog has none. Throws the theme's own error (its file and line)
    /// when it cannot load; the next call moves on past it.
    public func next() throws -> Theme? {
        guard !names.isEmpty else { return nil }
        let index = current.withLock { i -> Int in
            i = (i + 1) % names.count
            return i
        }
        return try catalog.theme(named: names[index])
    }
}
