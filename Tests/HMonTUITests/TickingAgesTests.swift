import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Synchronization
import Terminal
import Testing
import SQLiteStorage

/// "1 min ago" moves on while the dashboard is open, with no reload; an old reading shows its date.
@MainActor
struct TickingAgesTests {
    @Test func theDevicesAgesMoveOnEachSecond() async throws {
        let world = try await DemoWorld()
        let offset = Mutex<TimeInterval>(0)
        let start = DemoWorld.now
        let clock = Clock(calendar: world.clock.calendar, now: { start.addingTimeInterval(offset.withLock { $0 }) })
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: DemoData.userName)
        let dashboard = Dashboard(app: AppModel(service: service, clock: clock))
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        let before = dashboard.app.devices.rows.map(\.lastAge)
        #expect(before.contains("1 min ago"), "\(before)")

        offset.withLock { $0 = 2 * 3600 }
        dashboard.secondPassed()
        let after = dashboard.app.devices.rows.map(\.lastAge)
        #expect(!after.contains("1 min ago") && after.contains("2 h ago"), "\(after)")

        offset.withLock { $0 = 400 * 86_400 }
        dashboard.secondPassed()
        let yearLater = dashboard.app.devices.rows.map(\.lastAge)
        #expect(yearLater.contains { $0.hasSuffix(", 2026") }, "a reading over a year old shows its date: \(yearLater)")
        #expect(!yearLater.contains { $0.contains("days ago") })
    }
}
