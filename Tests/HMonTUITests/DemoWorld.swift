import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import SQLiteStorage

/// A demo store in a temporary folder, filled for a fixed instant (Fri Nov 20, 2026 18:00 in Berlin),
/// and a dashboard on it, so every frame is the same on every run.
@MainActor
final class DemoWorld {
    let folder: URL
    let store: LocalStore
    let clock: Clock

    static let now: Date = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: 20, hour: 18))!
    }()

    init() async throws {
        // A name of fixed length whose random part `stable(_:)` masks in frames.
        let suffix = String(UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(8))
        folder = URL(fileURLWithPath: "/tmp/hmon-snap-\(suffix)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        clock = Clock.fixed(Self.now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        store = try LocalStore(url: folder.appendingPathComponent("demo.sqlite"), passwordHasher: .fastForTests)
        try await DemoData.fill(store, now: Self.now, calendar: clock.calendar)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A dashboard signed in as demo (or on the sign-in form).
    func dashboard(signedIn: Bool = true) async throws -> Dashboard {
        let service = LocalHealthService(store: store)
        let app = AppModel(service: service, clock: clock)
        let dashboard = Dashboard(app: app)
        if signedIn {
            try await service.actingAs(name: DemoData.userName)
            dashboard.run(app.startSignedIn())
        } else {
            dashboard.run(app.start(savedSession: nil))
        }
        await dashboard.settle()
        return dashboard
    }

    /// The frame with the temporary folder's random letters masked. Touches no state of the world, so any
    /// caller may use it (the reference frames mask with it too).
    nonisolated static func stable(_ frame: String) -> String {
        frame.replacing(/hmon-snap-[0-9a-f]{1,8}/) { match in
            "hmon-snap-" + String(repeating: "x", count: match.output.count - "hmon-snap-".count)
        }
    }
}

/// Renders a dashboard on the in-memory canvas (laid out for `size` first, as a resize would).
@MainActor
func frame(of dashboard: Dashboard, size: Size) -> String {
    dashboard.resize(to: size)
    return DemoWorld.stable(dashboard.frame(size: size).renderPlain())
}

extension Dashboard {
    /// The weights screen's model, once a scale is open.
    var weights: WeightsModel? { (screens.first { $0.id == .weights } as? WeightsScreen)?.model }
    /// The energy screen's model.
    var energy: EnergyModel? { (screens.first { $0.id == .energy } as? EnergyScreen)?.model }

    /// Presses `key` and waits for what it started.
    func press(_ key: Key) async -> Outcome {
        let outcome = handle(key)
        await settle()
        return outcome
    }
}
