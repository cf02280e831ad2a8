import ArgumentParser
import Foundation
import HMonTUI
import HealthCore
import HealthModel
import HMonCommandLine
import HealthViewModels
import Terminal
import SQLiteStorage

/// `hmon` (the default subcommand, also `hmon dashboard`): the dashboard, and what it opens and how it looks.
struct DashboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        _superCommandName: "hmon",  // for `DirectParse`; read only when this command is parsed as the root
        abstract: "Sign in, devices, weights and energy, live: `hmon`, `hmon --demo`, `hmon --db PATH`.")

    @Flag(help: "Open the demo store (user demo, password demo), created with demo data on first use.")
    var demo = false

    @Option(help: ArgumentHelp("The database file, or a postgres://USER@HOST[:PORT]/DATABASE URL (default: $HMON_DB, else $XDG_DATA_HOME/hmon/hmon.sqlite).", valueName: "path|url"))
    var db: String?

    @Option(help: ArgumentHelp("Watch a server instead of a local store (default: $HMON_SERVER), e.g. http://127.0.0.1:8080.", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("A colour theme: a name (see Themes/ and $XDG_CONFIG_HOME/hmon/themes/) or a .theme file.", valueName: "name|path"))
    var theme: String?

    @Flag(name: .customLong("no-color"), help: "Draw without colours (as NO_COLOR does).")
    var noColor = false

    @Flag(name: .customLong("no-mouse"), help: "Leave the mouse to the terminal (selection, scrollback) instead of clicks and the wheel.")
    var noMouse = false

    @Option(help: ArgumentHelp("Seconds between refreshes from a server without a change feed (a local store, and a server with one, are watched continuously).", valueName: "seconds"), transform: NumberArgument.parse)
    var refresh: Double?

    @Flag(name: .customLong("exit-after-first-frame"), help: .hidden)
    var exitAfterFirstFrame = false

    /// For tests of R: no refresh happens unless asked for.
    @Flag(name: .customLong("no-live-updates"), help: .hidden)
    var noLiveUpdates = false

    func validate() throws {
        if demo, server != nil {
            throw ValidationError("--demo opens the local demo store: leave out --server")
        }
        if let refresh, !(refresh >= 1) {
            throw ValidationError("--refresh must be at least 1 second, like --refresh 30")
        }
    }

    func run() async throws {
        try await DashboardLauncher.run(self)
    }
}

/// `hmon`: opens the store, resumes the saved session or shows sign-in, and runs the dashboard.
enum DashboardLauncher {
    @MainActor
    static func run(_ options: DashboardCommand, environment: [String: String] = ProcessInfo.processInfo.environment) async throws {
        // Say so before touching any file when there is no terminal to draw on.
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw HealthError.unsupported(ScreenError.notATerminal.description)
        }
        let opener = StoreOpener(db: options.db, demo: options.demo, server: options.server, environment: environment)
        let paths = opener.paths
        let config: DashboardConfig
        do { config = try DashboardConfig.load(from: paths.configFile) } catch { throw HealthError.invalidValue(error.description) }

        let catalog = ThemeCatalog.standard(environment: environment)
        let themeName = ThemeCatalog.chosenTheme(flag: options.theme, environment: environment, configured: config.theme)
        let theme: Theme
        do { theme = try catalog.theme(named: themeName) } catch { throw HealthError.invalidValue(error.description) }

        let clock = Clock.system
        let service: any HealthService
        // The demo's account is the documented demo/demo: it opens signed in, without asking for a password.
        var signedInAsDemo = false
        if let address = opener.serverAddress {
            // Signs in on the usual screen; tokens it obtains or refreshes are saved in the session file.
            service = try opener.remoteService(address).service
        } else {
            let store = try await opener.openDashboardStore(now: clock.now(), calendar: clock.calendar)
            let local = LocalHealthService(store: store)
            if options.demo {
                _ = try await local.actingAs(name: DemoData.userName)
                signedInAsDemo = true
            }
            service = local
        }
        let sessions = SessionStore(paths: paths)
        let location = service.location
        let keeper = SessionKeeper(save: { try sessions.save($0) }, clear: { try sessions.delete(at: location) })
        let app = AppModel(service: service, clock: clock, sessions: keeper)
        if options.demo {
            app.signIn.note = "Demo store: user \(DemoData.userName), password \(DemoData.password)"
        }
        let dashboard = Dashboard(app: app, themeName: theme.name)
        dashboard.applyKeys(of: config)
        let configFile = paths.configFile
        dashboard.saveTheme = { try DashboardConfig.save(theme: $0, to: configFile) }
        dashboard.run(signedInAsDemo ? app.startSignedIn()
                      : app.start(savedSession: sessions.load(at: location), userName: options.demo ? DemoData.userName : nil))
        let screenOptions = Screen.Options(noColor: options.noColor, theme: theme, environment: environment,
                                           mouse: !options.noMouse && config.mouse != false)
        do {
            try await App.run(dashboard: dashboard, screenOptions: screenOptions,
                              themes: ThemeSwitcher(catalog: catalog, current: theme.name),
                              options: App.Options(refreshInterval: options.refresh ?? config.refreshSeconds ?? 30,
                                                   exitAfterFirstFrame: options.exitAfterFirstFrame,
                                                   liveUpdates: !options.noLiveUpdates,
                                                   eventTrace: environment["HMON_EVENT_TRACE"].map(URL.init(fileURLWithPath:)),
                                                   settings: LiveSettings(file: paths.configFile, catalog: catalog,
                                                                          themeFromFile: options.theme == nil && environment["HMON_THEME"] == nil,
                                                                          refreshFromFile: options.refresh == nil, mouseFromFile: !options.noMouse)))
        } catch let error as ScreenError {
            throw HealthError.unsupported(error.description)
        }
    }
}
