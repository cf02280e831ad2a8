import Foundation
import HMonTUI
import HealthCore
import HealthViewModels
import Terminal

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
        if signedIn {
            try await service.actingAs(name: DemoData.userName)
            await app.startSignedIn()
        } else {
            await app.start(savedSession: nil)
        }
        return Dashboard(app: app)
    }

    /// The frame with the temporary folder's random letters masked.
    static func stable(_ frame: String) -> String {
        frame.replacing(/hmon-snap-[0-9a-f]{1,8}/) { match in
            "hmon-snap-" + String(repeating: "x", count: match.output.count - "hmon-snap-".count)
        }
    }
}

/// Renders a dashboard on the in-memory canvas.
@MainActor
func frame(of dashboard: Dashboard, size: Size) -> String {
    let canvas = GridCanvas(size: size)
    dashboard.draw(on: canvas)
    return DemoWorld.stable(canvas.renderPlain())
}
