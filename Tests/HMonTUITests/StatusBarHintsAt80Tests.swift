import Foundation
@testable import HMonTUI
import HealthViewModels
import Terminal
import Testing

/// At 80×24, the size most terminals open at, the status bar offers what a newcomer looks for: adding a
/// device and the profile on Devices, and undo on the table screens.
@MainActor
struct StatusBarHintsAt80Tests {
    @Test func theStatusBarOffersAddingADeviceAndTheProfileAt80Columns() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("1"))
        let statusBar = try #require(frame(of: dashboard, size: Size(width: 80, height: 24)).split(separator: "\n").last)
        #expect(statusBar.contains("a add device"), "\(statusBar)")
        #expect(statusBar.contains("p profile"), "\(statusBar)")
    }

    @Test func theTableScreensOfferUndoAt80Columns() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        for tab in ["2", "3", "4"] {
            _ = await dashboard.press(.char(Character(tab)))
            let statusBar = try #require(frame(of: dashboard, size: Size(width: 80, height: 24)).split(separator: "\n").last)
            #expect(statusBar.contains("U undo"), "tab \(tab): \(statusBar)")
        }
    }
}
