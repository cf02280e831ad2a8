import Foundation
import HealthCore
import HealthModel
import Testing
import TestSupport

/// The issue's done-when, in a real terminal: a Withings notification from the fixture server puts the new
/// weigh-in on an open dashboard (`hmon --server`), and R on it reads Withings at once.
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct WithingsDashboardEndToEndTests {
    @Test func aNotifiedWeighInShowsOnAnOpenDashboardAndRReadsWithingsAtOnce() async throws {
        let world = try await WithingsWorld.start(groups: [WithingsEndToEndTests.morning], publicURL: true)
        defer { world.stop() }
        let linked = try await world.linkThroughTheCallback()
        try #require(linked.status == 0, "\(linked.errors)")
        _ = try await world.poll()   // subscribes

        let tmux = try await TmuxSession(width: 100, height: 30, prompt: "e2e$ ") { folder in
            ["HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
             "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "TERM": "xterm-256color"]
        }
        defer { tmux.shutDown() }
        // A refresh from the server every second, so the test waits on the notification, not on the timer.
        try await tmux.type("\(world.binary.path) --server \(world.address) --refresh 1", pressingEnter: true)
        try await tmux.waitForScreen("the sign-in form") { $0.contains("Sign in") }
        try await tmux.type("alice")
        try await tmux.press("Tab")
        try await tmux.type("correct horse")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the devices screen") { $0.contains("Bathroom scale") }
        try await tmux.type("2")
        try await tmux.waitForScreen("the scale's weigh-ins") { $0.contains("Weight in kg") && $0.contains("72.") }

        // Values only, not dates: the rows show local time. Neither value can be the trend before it arrives.
        // The next morning on the scale: Withings notifies hmon serve, which reads it; the dashboard shows it.
        world.fixture.add(WithingsExamples.Group(grpid: 1004, date: 1_763_708_400, measures: [(71800, 1, -3)]))
        #expect(try await world.fixture.notify(startdate: 1_763_708_400, enddate: 1_763_708_401) == [200])
        try await tmux.waitForScreen("the notified weigh-in") { $0.contains("71.8") }

        // A weigh-in Withings has not notified (yet): only R, which asks the server to read Withings, brings it.
        world.fixture.add(WithingsExamples.Group(grpid: 1005, date: 1_763_794_800, measures: [(70900, 1, -3)]))
        try await tmux.type("R")
        try await tmux.waitForScreen("the weigh-in R fetched") { $0.contains("70.9") }
        try await tmux.type("q")
    }
}
