import Foundation
import Synchronization
import HealthViewModels
import Terminal

/// The event loop: one `async` loop on the main actor over one stream of events (keys ready, resize,
/// the once-a-second tick, background work finished, spinner frames). Keys are drained with ncurses on
/// the main actor; anything that calls the service runs as a task (see `Dashboard`) and posts back.
///
/// Live updates: on a local store the tick asks for the store's change token (a cheap `data_version`
/// read) and refreshes only when it moved; against a server (no token) it refreshes every
/// `refreshInterval` seconds. When nothing happens the loop sleeps in `poll()`: idle hmon uses no CPU.
@MainActor
public final class App {
    public struct Options: Sendable {
        /// Seconds between polls when the service has no change token (a server).
        public var refreshInterval: Double
        /// Quit as soon as the first complete frame is on screen (for launch benchmarks).
        public var exitAfterFirstFrame: Bool

        public init(refreshInterval: Double = 30, exitAfterFirstFrame: Bool = false) {
            self.refreshInterval = refreshInterval
            self.exitAfterFirstFrame = exitAfterFirstFrame
        }
    }

    enum Event: Sendable {
        case terminal(TerminalEvent)
        /// Background work changed what is on screen.
        case redraw
        /// Time to turn the spinner.
        case spin
    }

    private let screen: Screen
    private let dashboard: Dashboard
    private let themes: ThemeSwitcher
    private let options: Options
    private var continuation: AsyncStream<Event>.Continuation?
    private var spinnerTask: Task<Void, Never>?
    private var lastPoll = Date()
    private var isCheckingForChanges = false

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
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(128))
        self.continuation = continuation
        dashboard.onChange = { continuation.yield(.redraw) }
        dashboard.cycleTheme = { [themes, screen] in
            guard let theme = themes.next() else { return nil }
            screen.setTheme(theme)
            return theme.name
        }
        let terminalEvents = screen.events(tick: .seconds(1))
        let forwarder = Task {
            for await event in terminalEvents { continuation.yield(.terminal(event)) }
            continuation.finish()
        }
        defer {
            forwarder.cancel()
            spinnerTask?.cancel()
            continuation.finish()
        }

        draw()
        if options.exitAfterFirstFrame {
            await dashboard.settle()
            draw()
            return
        }
        for await event in events {
            switch event {
            case .terminal(.keyReady):
                for key in screen.readKeys() {
                    if key == .resize { continue }
                    if dashboard.handle(key) == .quit { return }
                }
            case .terminal(.resize):
                screen.updateSize()
            case .terminal(.tick):
                liveUpdate()
            case .redraw:
                break
            case .spin:
                dashboard.tick()
            }
            startSpinnerIfBusy()
            draw()
        }
    }

    private func draw() {
        dashboard.draw(on: screen.canvas)
        screen.present()
    }

    /// Turns the spinner ten times a second while background work runs, and stops when it ends.
    private func startSpinnerIfBusy() {
        guard dashboard.isBusy, spinnerTask == nil, let continuation else { return }
        spinnerTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                guard let self, self.dashboard.isBusy else { break }
                continuation.yield(.spin)
            }
            self?.spinnerTask = nil
            continuation.yield(.redraw)
        }
    }

    /// Once a second: a cheap look at the store's change token, or a timed poll of a server.
    private func liveUpdate() {
        guard !isCheckingForChanges, let continuation else { return }
        isCheckingForChanges = true
        Task { [weak self] in
            guard let self else { return }
            defer { self.isCheckingForChanges = false }
            switch await self.dashboard.checkForChanges() {
            case true?:
                continuation.yield(.redraw)
            case false?:
                break
            case nil:
                if Date().timeIntervalSince(self.lastPoll) >= self.options.refreshInterval {
                    self.lastPoll = Date()
                    self.dashboard.poll()
                    continuation.yield(.redraw)
                }
            }
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

    /// The next theme that loads; nil when there is none.
    public func next() -> Theme? {
        guard !names.isEmpty else { return nil }
        for _ in names {
            let index = current.withLock { i -> Int in
                i = (i + 1) % names.count
                return i
            }
            if let theme = try? catalog.theme(named: names[index]) { return theme }
        }
        return nil
    }
}
