import ArgumentParser
import Foundation
import HMonTUI
import HealthCore
import HealthModel
import HMonCommandLine
import HealthViewModels
import Terminal

/// `hmon snapshot`: one frame of the dashboard as plain text, without a terminal, for scripts, docs and tests.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        _superCommandName: "hmon",  // for `DirectParse`; read only when this command is parsed as the root
        abstract: "Print one frame of a dashboard screen as plain text (no terminal needed).")

    @Option(help: ArgumentHelp("The screen: \(ScreenRegistry.snapshotNames.joined(separator: ", ")).", valueName: "screen"))
    var screen: String = ScreenID.devices.rawValue

    @Option(help: ArgumentHelp("The frame size in cells, WIDTHxHEIGHT.", valueName: "size"))
    var size: FrameSize = FrameSize(Size(width: 100, height: 30))

    @Flag(help: "Use the demo store (created with demo data on first use).")
    var demo = false

    @Option(help: ArgumentHelp("The database file (default: $HMON_DB, else the default store).", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Show the screens as this user (default: demo on the demo store, else the signed-in user).", valueName: "name"))
    var user: String?

    @Option(help: ArgumentHelp("A theme name or .theme file (checked; plain text has no colours).", valueName: "name"))
    var theme: String?

    @Option(help: ArgumentHelp("Draw as if it were this local time, \"YYYY-MM-DD HH:MM\".", valueName: "time"))
    var at: String?

    func validate() throws {
        guard ScreenRegistry.snapshotNames.contains(screen) else {
            throw ValidationError("there is no screen \"\(screen)\": pass one of \(ScreenRegistry.snapshotNames.joined(separator: ", "))")
        }
    }

    func run() async throws {
        if let theme {
            do { _ = try ThemeCatalog.standard().theme(named: theme) } catch { throw HealthError.invalidValue(error.description) }
        }
        let frame = try await Self.frame(screen: screen, size: size.size, source: StoreOpener(db: db, demo: demo, user: user),
                                         user: user, theme: theme,
                                         at: try at.map { try LocalTime.parse($0, now: Date(), calendar: .current) })
        printEscaped(frame)
    }

    @MainActor
    static func frame(screen: String, size: Size, source: StoreOpener, user: String?, theme: String?,
                      at: Date?) async throws -> String {
        let clock = at.map { Clock.fixed($0) } ?? .system
        let store = try await source.openDashboardStore(now: clock.now(), calendar: clock.calendar, access: .readOnly)
        let service = LocalHealthService(store: store)
        let app = AppModel(service: service, clock: clock)
        let dashboard = Dashboard(app: app, themeName: theme ?? "default")
        if screen == ScreenID.signIn.rawValue {
            dashboard.run(app.start(savedSession: nil, userName: user))
        } else {
            _ = try await source.actingUser(on: service)
            dashboard.run(app.startSignedIn())
        }
        return await dashboard.snapshot(of: screen, size: size).renderPlain()
    }
}

/// `100x30` on the command line.
struct FrameSize: ExpressibleByArgument, Sendable {
    var size: Size
    init(_ size: Size) { self.size = size }

    init?(argument: String) {
        let parts = argument.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...1000).contains(w), (1...1000).contains(h) else {
            return nil
        }
        size = Size(width: w, height: h)
    }

    var defaultValueDescription: String { "\(size.width)x\(size.height)" }
}
