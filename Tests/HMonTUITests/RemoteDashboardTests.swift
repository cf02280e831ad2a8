import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthServer
@testable import HealthViewModels
import TestSupport
import Terminal
import Synchronization
import Testing
import SQLiteStorage
import RemoteClient

/// The dashboard against a real server on a loopback port, over the demo store.
@MainActor
@Suite(.heavy)
struct RemoteDashboardTests {
    /// ← ← on Energy while the server holds back the first day's answer: the dashboard's own runner
    /// cancels the first load and drops whatever it brings, whether it comes back before or after the second.
    @Test(arguments: [true, false])
    func leftTwiceOnEnergyEndsOnTheRightDayWhateverOrderTheAnswersCome(holdFirst: Bool) async throws {
        let world = try await DemoWorld()
        let calendar = world.clock.calendar
        let thursday = Day(DemoWorld.now, in: calendar).adding(days: -1)
        let gate = ResponseGate(holding: "views/screens/energy?from=\(thursday.adding(days: -6))&to=\(thursday)&")
        var configuration = ServerConfiguration.forTests()
        configuration.beforeEachRequest = { await gate.beforeRequest($0) }
        let (dashboard, server) = try await world.remoteDashboard(configuration: configuration)
        defer { gate.release() }
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        _ = await dashboard.press(.char("3"))
        let energy = try #require(dashboard.energy)
        #expect(energy.title == "Today · Fri, Nov 20, 2026")

        if holdFirst { gate.arm() }
        _ = dashboard.handle(.left)          // Thursday: held at the server when holdFirst
        if holdFirst { #expect(await gate.heldRequestArrived(), "the held request never came") }
        _ = dashboard.handle(.left)          // Wednesday
        #expect(energy.isRefreshing, "refreshing while any answer is still to come")
        if holdFirst {
            // Wait for Wednesday's answer, then let Thursday's go.
            while energy.shownDay != thursday.adding(days: -1) { await dashboard.receiveNext() }
            gate.release()
        }
        await dashboard.settle()
        await server.stop()

        // The same figures as the local store gives for Wednesday, under Wednesday's title.
        let local = LocalHealthService(store: world.store)
        try await local.actingAs(name: DemoData.userName)
        let wednesday = try await local.energySummary(for: thursday.adding(days: -1), now: DemoWorld.now, calendar: calendar)
        #expect(energy.day == thursday.adding(days: -1))
        #expect(energy.title == "Wed, Nov 18, 2026")
        #expect(energy.lines.last?.label == "Consumed")
        #expect(energy.lines.last?.value == Formats.whole(wednesday.consumed))
        #expect(!energy.isRefreshing)
        #expect(energy.problem == nil, "the cancelled load's failure is dropped too")
        #expect(energy.week.last?.label == "Wed Nov 18")
    }

    /// Issue 11, item 6: a server that stops answering marks the stale screen "offline since HH:MM" at once
    /// (a refused connection is not retried), keeps what it showed and its key hints.
    @Test func aStoppedServerMarksTheScreenOfflineAndKeepsItsKeys() async throws {
        let world = try await DemoWorld()
        let server = try await RunningServer.start(store: try LocalStore(url: world.store.url, passwordHasher: .fastForTests),
                                                   configuration: .forTests())
        // A long request timeout: a refused connection must not wait for it.
        let remote = RemoteHealthService(server: server.url, options: .init(timeout: 120))
        _ = try await remote.signIn(name: DemoData.userName, password: DemoData.password)
        let dashboard = Dashboard(app: AppModel(service: remote, clock: world.clock))
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        let size = Size(width: 100, height: 24)
        #expect(!frame(of: dashboard, size: size).contains("offline"))
        await server.stop()

        _ = await dashboard.press(.char("R"))
        let text = frame(of: dashboard, size: size)
        // Said for what it is, a refused connection, not as a server that fell silent until the timeout.
        #expect(!text.contains("no answer in time"), "\(text)")
        let status = text.split(separator: "\n").last.map(String.init) ?? ""
        let since = try #require(remote.offlineSince)
        let parts = world.clock.calendar.dateComponents([.hour, .minute], from: since)
        #expect(status.contains(String(format: "offline since %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)), "\(status)")
        #expect(status.contains("R refresh") && status.contains("q quit"), "the key hints stay: \(status)")
        #expect(text.contains("Bathroom scale"), "what was loaded stays on screen")
    }
}

extension Dashboard {
    /// Waits for one answer and applies it.
    func receiveNext() async {
        for await loaded in inbox {
            receive(loaded)
            return
        }
    }

}

/// Every screen of the dashboard against a real server shows what the local store shows, figure for figure:
/// the frames are the same but for the status bar, which names the store. (The HRV screen once asked for 400
/// measurements through `messages/last`, which answers 100, and showed "count: must be between 1 and 100".)
@MainActor
struct RemoteEveryScreenTests {
    @Test func everyScreenOverAServerShowsTheLocalStoresFigures() async throws {
        let world = try await DemoWorld()
        let (dashboard, server) = try await world.remoteDashboard()
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        let local = try await world.dashboard()
        let size = Size(width: 120, height: 40)
        for (i, entry) in ScreenRegistry.tabs.enumerated() {
            _ = await dashboard.press(.char(Character(String(i + 1))))
            _ = await local.press(.char(Character(String(i + 1))))
            let screen = try #require(dashboard.screens.first { $0.id == entry.id })
            #expect(screen.problem == nil, "\(entry.id) over a server: \(screen.problem ?? "")")
            let remoteLines = frame(of: dashboard, size: size).split(separator: "\n", omittingEmptySubsequences: false).dropLast(2)
            let localLines = frame(of: local, size: size).split(separator: "\n", omittingEmptySubsequences: false).dropLast(2)
            #expect(Array(remoteLines) == Array(localLines), "\(entry.id): the remote frame differs from the local one")
        }
        await server.stop()
    }
}

extension DemoWorld {
    /// A real `hmon serve` on a loopback port over this world's store, and a dashboard on it signed in as
    /// the demo user (not yet started: the test starts it, as its case needs).
    func remoteDashboard(configuration: ServerConfiguration = .forTests())
        async throws -> (Dashboard, RunningServer) {
        let server = try await RunningServer.start(store: try LocalStore(url: store.url, passwordHasher: .fastForTests),
                                                   configuration: configuration)
        let remote = RemoteHealthService(server: server.url, options: .init(timeout: TestServerLimits.clientTimeout))
        _ = try await remote.signIn(name: DemoData.userName, password: DemoData.password)
        return (Dashboard(app: AppModel(service: remote, clock: clock)), server)
    }
}

/// What a remote dashboard costs the server: each screen reads its one screen view, not the readings it is
/// computed from, so a screen switch and an R (two loads) cost 3 requests where they cost 430–574 (energy),
/// the walk stays far below the server's default rate limit, and a weigh-in typed after it is stored.
@MainActor
struct RemoteDashboardRequestsTests {
    @Test func walkingEveryScreenWithARefreshCostsAFewRequestsAStepAndTheWeighInAfterIsStored() async throws {
        let world = try await DemoWorld()
        let paths = RequestLog()
        var configuration = ServerConfiguration.forTests(rateLimit: .defaultForServe)
        configuration.beforeEachRequest = { paths.append($0) }
        let (dashboard, server) = try await world.remoteDashboard(configuration: configuration)
        dashboard.run(dashboard.app.startSignedIn())
        await dashboard.settle()
        var costs: [String: Int] = [:]
        for (i, entry) in ScreenRegistry.tabs.enumerated() {
            paths.clear()
            _ = await dashboard.press(.char(Character(String(i + 1))))
            _ = await dashboard.press(.char("R"))
            await dashboard.settle()
            let screen = try #require(dashboard.screens.first { $0.id == entry.id })
            #expect(screen.problem == nil, "\(entry.id): \(screen.problem ?? "")")
            // The change feed's own connection aside: it is one request for as long as the dashboard is open.
            let step = paths.all.filter { !$0.hasPrefix("/v1.1/hmon/changes") }
            costs["\(entry.id)"] = step.count
            // Two loads of one screen view each (the second a 304 unless the figures moved), and R's poll of
            // linked sources.
            #expect(step.count <= 3, "\(entry.id) and an R cost \(step.count): \(step)")
            // The Sleep screen's data is the `sleep` view itself, which scripts read too.
            #expect(step.filter { $0.hasPrefix("/v1.1/hmon/views/screens/") || $0.hasPrefix("/v1.1/hmon/views/sleep") }.count == 2,
                    "\(entry.id): \(step)")
        }
        #expect(costs.values.reduce(0, +) <= 3 * ScreenRegistry.tabs.count, "\(costs)")
        // A weigh-in typed after the walk is stored.
        _ = await dashboard.press(.char("2"))
        _ = await dashboard.press(.char("a"))
        await dashboard.type("71.3")
        _ = await dashboard.press(.enter)
        await dashboard.settle()
        await server.stop()
        let local = LocalHealthService(store: world.store)
        try await local.actingAs(name: DemoData.userName)
        let newest = try await local.readings(ReadingsQuery(field: Field.weight, order: .desc, limit: 1))
        #expect(newest.first?.data[Field.weight]?.number == 71.3, "costs per screen switch and R: \(costs)")
    }
}

/// The paths of the requests a server was asked, in order.
final class RequestLog: Sendable {
    private let paths = Mutex<[String]>([])
    func append(_ path: String) { paths.withLock { $0.append(path) } }
    func clear() { paths.withLock { $0 = [] } }
    var all: [String] { paths.withLock { $0 } }
}
