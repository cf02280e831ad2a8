import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthServer
import Testing

/// What the dashboard does with what a server's change feed says (issue 27, item 3): the event loop hands
/// each event to `Dashboard.changeFeed`; these drive it the same way, against a real server.
@MainActor
struct ChangeFeedDashboardTests {
    @Test func aChangeReloadsTheScreenAndWhileTheFeedIsFollowedTheTickDoesNotPoll() async throws {
        let world = try await DemoWorld()
        let (dashboard, server) = try await world.remoteDashboard()
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()

        dashboard.changeFeed(.connected)
        #expect(dashboard.isBusy, "the feed open: the screen reloads, for what changed between its load and the feed")
        await dashboard.settle()
        dashboard.liveUpdate(pollInterval: 0)
        #expect(!dashboard.isBusy, "no poll while the feed is followed, however short the interval")

        dashboard.changeFeed(.changed(kinds: nil))
        #expect(dashboard.isBusy, "a change reloads the screen on show at once")
        await dashboard.settle()

        dashboard.changeFeed(.disconnected)
        dashboard.liveUpdate(pollInterval: 0)
        #expect(!dashboard.isBusy, "nor while it is being opened again")
        dashboard.changeFeed(.connected)
        #expect(dashboard.isBusy, "back after a drop: what changed meanwhile was not told, so the screen reloads")
        await dashboard.settle()

        dashboard.changeFeed(.unsupported)
        dashboard.liveUpdate(pollInterval: 0)
        #expect(dashboard.isBusy, "a server without a feed is polled as before")
        await dashboard.settle()
        await server.stop()
    }

    /// A change event that names what changed reloads only a screen that shows it: a meal leaves Weights as
    /// it is and costs the server nothing; a weigh-in reloads it; a change of unknown kind reloads any screen.
    @Test func aChangeOfAKindTheScreenDoesNotShowCostsNothing() async throws {
        let world = try await DemoWorld()
        let (dashboard, server) = try await world.remoteDashboard()
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        _ = await dashboard.press(.char("2"))
        await dashboard.settle()
        dashboard.changeFeed(.connected)
        await dashboard.settle()

        dashboard.changeFeed(.changed(kinds: [.energy]))
        #expect(!dashboard.isBusy, "a meal does not reload Weights")
        dashboard.changeFeed(.changed(kinds: [.hrv]))
        #expect(!dashboard.isBusy, "nor does an HRV measurement")
        dashboard.changeFeed(.changed(kinds: [.weights]))
        #expect(dashboard.isBusy, "a weigh-in does")
        await dashboard.settle()
        dashboard.changeFeed(.changed(kinds: nil))
        #expect(dashboard.isBusy, "and so does a change of unknown kind")
        await dashboard.settle()

        _ = await dashboard.press(.char("3"))
        await dashboard.settle()
        dashboard.changeFeed(.changed(kinds: [.weights]))
        #expect(dashboard.isBusy, "a weigh-in reloads Energy too: the resting energy depends on the weight")
        await dashboard.settle()
        await server.stop()
    }

    /// What a sleep-only post's change event names (the kinds table: a night's sleep is on the HRV screen and the
    /// overview) reloads the HRV screen and the overview of an open dashboard without R; Weights stays as it is.
    @Test func aSleepOnlyChangeReloadsHRVAndTheOverviewButNotWeights() async throws {
        let world = try await DemoWorld()
        let (dashboard, server) = try await world.remoteDashboard()
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        dashboard.changeFeed(.connected)
        await dashboard.settle()
        let sleepPost = try #require(ChangeKind.of(fields: [Field.sleepMinutes, Field.inBedMinutes]))

        for (key, screen) in [("4", "HRV"), ("6", "the overview")] {
            _ = await dashboard.press(.char(Character(key)))
            await dashboard.settle()
            dashboard.changeFeed(.changed(kinds: sleepPost))
            #expect(dashboard.isBusy, "a night's sleep reloads \(screen)")
            await dashboard.settle()
        }
        _ = await dashboard.press(.char("2"))
        await dashboard.settle()
        dashboard.changeFeed(.changed(kinds: sleepPost))
        #expect(!dashboard.isBusy, "Weights shows no sleep")
        await server.stop()
    }
}
