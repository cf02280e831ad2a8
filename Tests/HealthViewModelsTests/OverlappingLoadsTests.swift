import Foundation
import HealthCore
import HealthModel
import HealthServer
import Synchronization
import TestSupport
import Testing
@testable import HealthViewModels
import SQLiteStorage
import RemoteClient

@MainActor
@Suite(.heavy)
struct OverlappingLoadsTests {
    /// A world whose server holds back the first request for the day `held` until the gate opens.
    private func heldWorld(holding held: Day, _ body: (ViewModelWorld, any HealthService, ResponseGate) async throws -> Void) async throws {
        let world = try ViewModelWorld()
        let local = try await world.signedIn()
        try await local.updateProfile(Profile(birthDate: Day(year: 1990, month: 1, day: 31), sex: .female, heightCm: 168))
        let scale = try await world.device("Withings Device", named: "Scale", on: local)
        let food = try await world.device("Calorie Tracker", named: "Food", on: local)
        try await world.weigh(65, at: "2026-11-10 07:00", device: scale, on: local)
        // A different intake each day, so every day's figures tell which day they belong to.
        for (day, kcal) in [(17, 1700.0), (18, 1800.0), (19, 1900.0)] {
            try await local.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("2026-11-\(day) 12:00").millisecondsSince1970,
                                            data: [Field.calories: .number(kcal)]))
        }
        // The energy of a day is read as the server's energy screen of its week: hold the first read of the `held` day's.
        let gate = ResponseGate(holding: "views/screens/energy?from=\(held.adding(days: -6))&to=\(held)&")
        var configuration = ServerConfiguration.forTests()
        configuration.beforeEachRequest = { await gate.beforeRequest($0) }
        let server = try await RunningServer.start(store: try LocalStore(url: world.database, passwordHasher: .fastForTests),
                                                   configuration: configuration)
        do {
            let remote = RemoteHealthService(server: server.url, options: .init(timeout: TestServerLimits.clientTimeout))
            _ = try await remote.signIn(name: "alice", password: "secret-pw")
            try await body(world, remote, gate)
        } catch {
            gate.release()
            await server.stop()
            throw error
        }
        gate.release()
        await server.stop()
    }

    @Test func pressingLeftTwiceEndsOnTheSecondDayWhenTheFirstAnswerArrivesLast() async throws {
        let today = ViewModelWorld.now
        let friday = Day(today, in: Clock.fixed(today, timeZone: TimeZone(identifier: "Europe/Berlin")!).calendar)
        try await heldWorld(holding: friday.adding(days: -1)) { world, service, gate in
            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.title == "Today · Fri, Nov 20, 2026")
            gate.arm()

            // ← ←: two loads; the first (Thursday) is held at the server, the second (Wednesday) is not.
            let first = try #require(model.previousDay().loads.first)
            let second = try #require(model.previousDay().loads.first)
            let held = Task { await first.run() }
            #expect(await gate.heldRequestArrived(), "the held request never came")
            await second.run().deliver().complete()
            #expect(model.title == "Wed, Nov 18, 2026")
            #expect(model.lines.last?.value == "1,800")
            #expect(model.isRefreshing == false, "the newest request has its answer")

            // Thursday's answer comes last: it is dropped, and the screen stays on Wednesday.
            gate.release()
            await held.value.deliver().complete()
            #expect(model.day == friday.adding(days: -2))
            #expect(model.title == "Wed, Nov 18, 2026")
            #expect(model.lines.last?.value == "1,800")
            #expect(model.week.last?.label == "Wed Nov 18")
            #expect(model.loads.dropped == 1)
        }
    }

    @Test func pressingLeftTwiceEndsOnTheSecondDayWhenTheAnswersArriveInOrder() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        let food = try await world.device("Calorie Tracker", named: "Food", on: service)
        try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("2026-11-19 12:00").millisecondsSince1970,
                                          data: [Field.calories: .number(1900)]))
        try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("2026-11-18 12:00").millisecondsSince1970,
                                          data: [Field.calories: .number(1800)]))
        let model = EnergyModel(service: service, clock: world.clock)
        let first = try #require(model.previousDay().loads.first)
        let second = try #require(model.previousDay().loads.first)
        // The older request's answer arrives first and is applied... no: it is already stale, so it is dropped.
        await first.run().deliver().complete()
        #expect(model.shownDay == nil, "an answer to a request already replaced is never shown")
        #expect(model.isRefreshing, "the newest request is still out")
        await second.run().deliver().complete()
        #expect(model.title == "Wed, Nov 18, 2026")
        #expect(model.lines.last?.value == "1,800")
        #expect(!model.isRefreshing)
    }
}
