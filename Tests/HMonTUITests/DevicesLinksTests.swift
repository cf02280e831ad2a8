import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage
import Terminal
import Testing

/// The sync doctor on the Devices screen: a line per link under the card where the wide layout has room,
/// a silent one marked; none at all without links, so the demo's frames stay as they were.
@MainActor
struct DevicesLinksTests {
    @Test func aWideDevicesScreenListsEachLinkAndMarksASilentOne() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let (phone, _) = try await world.store.createPushLink(kind: .healthConnect, userID: user.id, signingSecret: nil,
                                                              at: DemoWorld.now.addingTimeInterval(-5 * 86_400))
        try await world.store.noteArrival(LinkArrival(readings: [ReadingKind.weight.name: 3]), linkID: phone,
                                          at: DemoWorld.now.addingTimeInterval(-2 * 86_400 - 3600))
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("1"))
        let wide = frame(of: dashboard, size: Size(width: 200, height: 60))
        #expect(wide.contains("Links"), "\(wide)")
        #expect(wide.contains("health-connect  SILENT for 2 days"), "\(wide)")
        let narrow = frame(of: dashboard, size: Size(width: 120, height: 40))
        #expect(!narrow.contains("SILENT"), "no room beside the devices: `hmon sources` has it")
    }
}
