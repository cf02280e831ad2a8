import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// Ctrl-Z suspends, as in every other terminal program; undo has a key of its own (`U`), listed in the help,
/// and says in the person's words what it undid, and where that shows when it is not the screen on show.
@MainActor
struct UndoKeyAndSuspendTests {
    let size = Size(width: 120, height: 40)

    @Test func ctrlZSuspendsAndUndoesNothing() async throws {
        let world = try await DemoWorld()
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("a"))
        for character in "70.1" { _ = await dashboard.press(.char(character)) }
        _ = await dashboard.press(.enter)
        let count = try await world.store.messageCount(userID: user.id)

        #expect(await dashboard.press(.ctrl("z")) == .suspend)
        #expect(try await world.store.messageCount(userID: user.id) == count, "Ctrl-Z leaves the weigh-in where it is")
        // Typing in a prompt too: it never becomes a character of the field.
        _ = await dashboard.press(.char("a"))
        #expect(await dashboard.press(.ctrl("z")) == .suspend)
        _ = await dashboard.press(.escape)

        let help = dashboard.globalBindings
        #expect(help.contains { $0.keys == [.char("U")] && $0.action == .undo })
        #expect(help.contains { $0.keys == [.ctrl("z")] && $0.action == .suspend })
        #expect(!help.contains { $0.keys.contains(.ctrl("z")) && $0.action == .undo })

        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice?.hasPrefix("undid: removed the weigh-in of 70.1 kg") == true, "\(dashboard.ui.notice ?? "none")")
        #expect(try await world.store.messageCount(userID: user.id) == count - 1)
    }

    @Test func undoingAMealFromWeightsSaysItInTheProfilesUnitAndWhereItShows() async throws {
        let world = try await DemoWorld()
        let setup = LocalHealthService(store: world.store)
        try await setup.actingAs(name: DemoData.userName)
        var profile = try await setup.profile()
        profile.energyUnit = .kJ
        try await setup.updateProfile(profile)
        let dashboard = try await world.dashboard()
        dashboard.resize(to: size)
        let service = dashboard.app.service
        let food = try #require(try await service.devices().first { $0.name == "Food log" })
        // A meal logged in this session (as from a shell sharing the sign-in), while Weights is on show.
        _ = await dashboard.press(.char("2"))
        try await service.post(NewMessage(sdid: food.id, ts: DemoWorld.now.millisecondsSince1970 - 60_000,
                                          data: [Field.calories: .number(500 / 4.184), Field.comments: .text("test")]))

        _ = await dashboard.press(.char("U"))
        #expect(dashboard.ui.notice == "undid: removed the 500 kJ meal \"test\" of Nov 20, 2026 17:59 (on Energy)",
                "\(dashboard.ui.notice ?? "none")")
        #expect(frame(of: dashboard, size: size).contains("(on Energy)"))
    }
}
