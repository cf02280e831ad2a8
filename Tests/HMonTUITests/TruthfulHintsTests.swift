import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing

/// What the status bar and the keys promise, they do: L signs out from every screen, Enter is offered
/// only where it opens something, the sign-in form names the form it is on, and T without colour says why
/// it changes nothing.
@MainActor
struct TruthfulHintsTests {
    @Test func signingOutWorksFromEveryScreen() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        for tab in 1...dashboard.screens.count {
            _ = await dashboard.press(.char(Character(String(tab))))
            _ = await dashboard.press(.char("L"))
            #expect(dashboard.app.isConfirmingSignOut, "L on \(dashboard.app.screen)")
            _ = await dashboard.press(.char("n"))
            #expect(!dashboard.app.isConfirmingSignOut)
        }
    }

    @Test func enterIsOfferedOnlyOnADeviceThatWeighs() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        var offered: [String: Bool] = [:]
        for _ in 0..<dashboard.app.devices.rows.count {
            let name = try #require(dashboard.app.devices.selectedRow?.name)
            let statusBar = try #require(frame(of: dashboard, size: size).split(separator: "\n").last)
            offered[name] = statusBar.contains("see weight")
            _ = await dashboard.press(.down)
        }
        #expect(offered["Bathroom scale"] == true)
        #expect(offered["Watch"] == false && offered["Food log"] == false, "\(offered)")
    }

    @Test func theCreateAccountFormNamesItsOwnKeys() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard(signedIn: false)
        let size = Size(width: 120, height: 40)
        #expect(frame(of: dashboard, size: size).contains("new account"))
        _ = await dashboard.press(.ctrl("n"))
        let creating = frame(of: dashboard, size: size)
        #expect(creating.contains("Create your account"))
        #expect(!creating.contains("new account") && creating.contains("sign in instead"))
    }

    @Test func themesWithoutColourSayWhyNothingChanges() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        var cycled = 0
        dashboard.cycleTheme = { cycled += 1; return "gruvbox" }
        dashboard.drawsWithoutColour = true
        _ = await dashboard.press(.char("T"))
        #expect(cycled == 0)
        #expect(frame(of: dashboard, size: Size(width: 120, height: 40)).contains("no colours here"))
    }

    @Test func aProblemInTheStatusBarLeavesTheKeyHintsThatFit() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "nord.theme:3: not a colour" } }
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        dashboard.cycleTheme = { throw Broken() }
        _ = await dashboard.press(.char("T"))
        let statusBar = try #require(frame(of: dashboard, size: Size(width: 120, height: 40)).split(separator: "\n").last)
        #expect(statusBar.contains("nord.theme:3: not a colour: T tries the next theme"), "the problem, whole")
        #expect(statusBar.contains("? help") && statusBar.contains("q quit"), "\(statusBar)")
    }
}
