import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import RemoteClient
import SAMIContract
import Synchronization
import TestSupport
import Testing

/// Seven nights posted through Health Connect to a real `hmon serve`, read back as the `sleep` view, by a
/// remote client in one request, and by the local service from the same store: the same report, with each
/// night's time asleep, its stages against the clock, and the 7-day Sleep Regularity Index of seven nights
/// at the same hours, 100 (`SleepMeasuresTests` works the index by hand).
@Suite(.heavy) struct SleepViewTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// HC Webhook's sessions, one a night for the seven nights ending on `last`: 23:00–07:00 UTC, deep from
    /// 23:30 to 01:30, REM to 03:00, light to 07:00; 450 minutes asleep of 480 in bed.
    static func sevenNights(endingOn last: Day) -> String {
        let sessions = (0..<7).map { back -> String in
            let morning = last.adding(days: -back).start(in: utc)
            func at(_ hours: Double) -> String { iso(morning.addingTimeInterval(hours * 3600)) }
            return """
                {"session_end_time": "\(at(7))", "duration_seconds": 28800, "stages": [
                  {"stage": "deep", "start_time": "\(at(-0.5))", "end_time": "\(at(1.5))", "duration_seconds": 7200},
                  {"stage": "rem", "start_time": "\(at(1.5))", "end_time": "\(at(3))", "duration_seconds": 5400},
                  {"stage": "light", "start_time": "\(at(3))", "end_time": "\(at(7))", "duration_seconds": 14400}]}
                """
        }
        return #"{"timestamp": "2026-01-01T00:00:00Z", "app_version": "1.9.15", "sleep": ["# + sessions.joined(separator: ",") + "]}"
    }

    @Test(arguments: StoreEngine.available)
    func sevenNightsPostedThroughHealthConnectReadTheSameEverywhere(_ engine: StoreEngine) async throws {
        let requests = Mutex<[String]>([])
        try await ServerWorld.run(engine: engine, beforeEachRequest: { path in requests.withLock { $0.append(path) } }) { world in
            let yesterday = Day(world.clock.now, in: Self.utc).adding(days: -1)
            let link = try await HealthConnectTests.link(world)
            let posted = try await HealthConnectTests.post(world, link, Self.sevenNights(endingOn: yesterday))
            #expect(posted.status == 200, "\(posted.text)")
            #expect(try posted.json["added"] as? Int == 7, "\(posted.text)")

            let ask = SleepReportAsk(through: yesterday, days: 30, calendar: Self.utc)
            let local = try await LocalHealthService(store: world.store, userID: world.alice.id).sleepReport(ask)
            #expect(local.nights.count == 7)
            #expect(local.nights.map(\.day) == (0..<7).map { yesterday.adding(days: -$0) }, "newest first")
            for night in local.nights {
                #expect(night.asleep == 450 && night.inBed == 480 && night.fromStages)
                #expect(night.latency == 30 && night.wakeAfterSleepOnset == 0)
                #expect(night.hypnogram?.text == "0b,30d,150r,240c,480.")
                #expect(night.stages == [Field.deepSleepMinutes: 120, Field.remSleepMinutes: 90, Field.coreSleepMinutes: 240])
            }
            #expect(local.regularity7 == 100 && local.regularity30 == 100)
            // 30 minutes short of 8 h each night: 30 · (14 + 13 + … + 8) / 14 = 30 · 77/14 = 165 min.
            #expect(abs(local.debtMinutes - 165) < 1e-9)

            let remote = try await world.aliceClient()
            requests.withLock { $0 = [] }
            #expect(try await remote.sleepReport(ask) == local)
            #expect(requests.withLock { $0 }.count == 1, "one request: \(requests.withLock { $0 })")

            let token = try await world.token()
            let answer = try await ServerViewsTests.get(world, "/v1.1/hmon/views/sleep?through=\(yesterday)&days=30&tz=UTC", token: token)
            #expect(answer.status == 200)
            let view = try JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.SleepView>.self, from: answer.body).data
            #expect(view == local)
            // `hmon sleep --json` prints the view's data, byte for byte.
            let data = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            let printed = try JSONSerialization.jsonObject(with: try SleepText.json(local)) as? NSDictionary
            #expect(printed == (data?["data"] as? NSDictionary))
            // Unchanged, the same view is a 304.
            let again = try await ServerViewsTests.get(world, "/v1.1/hmon/views/sleep?through=\(yesterday)&days=30&tz=UTC", token: token,
                                                       ifNoneMatch: answer.etag)
            #expect(again.status == 304)
        }
    }

    /// The need sleep debt is measured against is the person's own once set in the profile: 450 minutes asleep
    /// a night owes nothing against 7.5 h, locally, through the remote client (which sends no need) and in the
    /// view, whose answer for the same address changes with the profile.
    @Test(arguments: StoreEngine.available)
    func theProfilesSleepNeedIsWhatDebtIsMeasuredAgainstEverywhere(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let yesterday = Day(world.clock.now, in: Self.utc).adding(days: -1)
            let link = try await HealthConnectTests.link(world)
            #expect(try await HealthConnectTests.post(world, link, Self.sevenNights(endingOn: yesterday)).status == 200)
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let ask = SleepReportAsk(through: yesterday, days: 30, calendar: Self.utc)
            let token = try await world.token()
            let address = "/v1.1/hmon/views/sleep?through=\(yesterday)&days=30&tz=UTC"
            let before = try await ServerViewsTests.get(world, address, token: token)
            #expect(try await local.sleepReport(ask).needMinutes == 480)

            var profile = try await local.profile()
            profile.sleepNeedMinutes = 450
            try await local.updateProfile(profile)
            #expect(try await world.store.profile(userID: world.alice.id).sleepNeedMinutes == 450, "kept by the store")

            let mine = try await local.sleepReport(ask)
            #expect(mine.needMinutes == 450 && mine.debtMinutes == 0)
            #expect(try await world.aliceClient().sleepReport(ask) == mine)
            let after = try await ServerViewsTests.get(world, address, token: token, ifNoneMatch: before.etag)
            #expect(after.status == 200, "a changed profile changes the view")
            let view = try JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.SleepView>.self, from: after.body).data
            #expect(view == mine)
            // A need asked for by name still wins: 8 h owes 165 minutes, as above.
            let asked = try await local.sleepReport(SleepReportAsk(through: yesterday, days: 30, needMinutes: 480, calendar: Self.utc))
            #expect(abs(asked.debtMinutes - 165) < 1e-9)

            profile.sleepNeedMinutes = 900
            await #expect(throws: HealthError.self) { try await local.updateProfile(profile) }
        }
    }
}
