import Foundation
import HealthCore
import HealthModel
import HealthServer
import RemoteClient
import SAMIContract
import Synchronization
import TestSupport
import Testing

/// hmon's screen views (`/v1.1/hmon/views/screens/…`): what one screen of the dashboard shows after a load,
/// in one request, equal to what the local service gives for the same store; the shapes docs/server.md
/// documents; a 304 for a screen that did not change; and nothing of another user's, whatever ids are asked.
@Suite struct ServerScreenViewsTests {
    typealias Views = ServerViewsTests

    @Test(arguments: StoreEngine.available)
    func everyScreenEqualsTheLocalServicesAndCostsOneRequest(_ engine: StoreEngine) async throws {
        let requests = Mutex<[String]>([])
        try await ServerWorld.run(engine: engine, beforeEachRequest: { path in requests.withLock { $0.append(path) } }) { world in
            let now = Views.wholeMilliseconds(world.clock.now)
            let calendar = Views.berlin
            try await Views.fill(world, calendar: calendar, now: now)
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let remote = try await world.aliceClient()
            let today = Day(now, in: calendar)
            let devices = try await local.devices()
            let food = try #require(devices.first { $0.name == "Food log" })

            func once<T>(_ work: () async throws -> T) async throws -> T {
                requests.withLock { $0 = [] }
                let value = try await work()
                let asked = requests.withLock { $0 }
                #expect(asked.count == 1 && asked.allSatisfy { $0.hasPrefix("/v1.1/hmon/views/screens/") }, "\(asked)")
                return value
            }

            let devicesAsk = DevicesScreenData.Ask(since: today.start(in: calendar), recentDevice: food.id)
            var devicesScreen = try await once { try await remote.devicesScreen(devicesAsk) }
            let localDevices = try await local.devicesScreen(devicesAsk)
            #expect(devicesScreen.recentDevice == food.id && !devicesScreen.recent.isEmpty)
            #expect(devicesScreen.todayCounts == localDevices.todayCounts && !devicesScreen.todayCounts.isEmpty)
            devicesScreen.overview = Views.shown(devicesScreen.overview)
            #expect(devicesScreen.overview == Views.shown(localDevices.overview))
            #expect(devicesScreen == DevicesScreenData(overview: Views.shown(localDevices.overview), profile: localDevices.profile,
                                                       todayCounts: localDevices.todayCounts, recentDevice: localDevices.recentDevice,
                                                       recent: localDevices.recent))

            let weightsAsk = WeightsScreenData.Ask(latestCount: 8, devices: [world.aliceScale.id],
                                                   days: today.adding(days: -29)...today, calendar: calendar)
            let weights = try await once { try await remote.weightsScreen(weightsAsk) }
            #expect(weights == (try await local.weightsScreen(weightsAsk)))
            #expect(weights.latest.count == 8 && weights.profile.goalKg == 68)

            // The week ending yesterday: the fill's meal of today may still lie ahead of the clock.
            let energyAsk = EnergyScreenData.Ask(days: today.adding(days: -7)...today.adding(days: -1), now: now, calendar: calendar,
                                                 foodLogs: [food.id], withLearned: true)
            let energy = try await once { try await remote.energyScreen(energyAsk) }
            #expect(energy == (try await local.energyScreen(energyAsk)))
            #expect(energy.week.count == 7 && energy.learned != nil && !energy.foodEntries.isEmpty)

            let hrvAsk = HRVScreenData.Ask(latestCount: 50, meters: [world.aliceScale.id], through: today, calendar: calendar)
            #expect(try await once { try await remote.hrvScreen(hrvAsk) } == (try await local.hrvScreen(hrvAsk)))

            let insightsAsk = InsightsScreenData.Ask(today: today, calendar: calendar)
            let insights = try await once { try await remote.insightsScreen(insightsAsk) }
            #expect(insights == (try await local.insightsScreen(insightsAsk)))
            #expect(!insights.totals.isEmpty)

            let overviewAsk = OverviewScreenData.Ask(days: today.adding(days: -29)...today, now: now, calendar: calendar)
            let overview = try await once { try await remote.overviewScreen(overviewAsk) }
            #expect(overview == (try await local.overviewScreen(overviewAsk)))
            #expect(overview.energy.count == 30)

            // A cuff's reading on the Withings scale: the vitals screen names its device and carries the profile.
            try await local.post(NewMessage(sdid: world.aliceScale.id, ts: now.millisecondsSince1970 - 120_000,
                                            data: [Field.systolic: .number(128), Field.diastolic: .number(82), Field.heartRate: .number(64)]))
            let vitalsAsk = VitalsScreenData.Ask(latestCount: 20)
            let vitals = try await once { try await remote.vitalsScreen(vitalsAsk) }
            #expect(vitals == (try await local.vitalsScreen(vitalsAsk)))
            #expect(vitals.readings.count == 1 && vitals.deviceNames[world.aliceScale.id] != nil && vitals.profile.goalKg == 68)
        }
    }

    /// Each screen's JSON has the keys docs/server.md names, and asking again with its ETag is a 304.
    @Test func eachScreensShapeIsTheDocumentedOneAndAnUnchangedScreenIsA304() async throws {
        try await ServerWorld.run { world in
            let now = world.clock.now
            try await Views.fill(world, calendar: Views.berlin, now: now)
            let token = try await world.token()
            let today = Day(now, in: Views.berlin)
            let food = try #require(try await LocalHealthService(store: world.store, userID: world.alice.id).devices()
                .first { $0.name == "Food log" })
            let span = "from=\(today.adding(days: -6))&to=\(today)&tz=Europe/Berlin"
            let screens: [(String, Set<String>)] = [
                ("devices?since=0&device=\(food.id)", ["overview", "profile", "todayCounts", "recentDevice", "recent", "links"]),
                ("weights?\(span)&devices=\(world.aliceScale.id)&count=5", ["latest", "weights", "profile", "composition"]),
                ("energy?\(span)&now=\(now.millisecondsSince1970)&foodLogs=\(food.id)&learned=true",
                 ["energy", "profile", "foodEntries", "recentFoodEntries", "learned"]),
                ("hrv?devices=\(world.aliceScale.id)&count=10&through=\(today)&tz=Europe/Berlin", ["measurements", "nights"]),
                ("insights?today=\(today)&tz=Europe/Berlin&days=30", ["profile", "totals", "nights"]),
                ("overview?\(span)&now=\(now.millisecondsSince1970)", ["profile", "weights", "energy", "totals"]),
                ("vitals?count=5", ["readings", "devices", "profile"]),
            ]
            for (path, keys) in screens {
                let answer = try await Views.get(world, "/v1.1/hmon/views/screens/" + path, token: token)
                #expect(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self).prefix(300))")
                let object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
                let data = try #require(object["data"] as? [String: Any], "\(path)")
                #expect(Set(data.keys).isSuperset(of: keys) && Set(data.keys).isSubset(of: keys), "\(path): \(data.keys.sorted())")
                let again = try await Views.get(world, "/v1.1/hmon/views/screens/" + path, token: token, ifNoneMatch: answer.etag)
                #expect(again.status == 304, "\(path)")
            }
            let learned = try await Views.get(world, "/v1.1/hmon/views/screens/" + screens[2].0, token: token)
            let view = try JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.EnergyScreenView>.self, from: learned.body).data
            #expect(view.learned != nil && view.foodEntries.allSatisfy { $0.sdid == food.id })
        }
    }

    /// A screen asked for with another user's device ids shows none of that user's readings.
    @Test func anotherUsersDeviceIdsShowNothingOfTheirs() async throws {
        try await ServerWorld.run { world in
            let now = world.clock.now
            let bob = LocalHealthService(store: world.store, userID: world.bob.id)
            try await bob.post(NewMessage(sdid: world.bobScale.id, ts: now.millisecondsSince1970 - 60_000, data: [Field.weight: .number(91.5)]))
            let token = try await world.token()
            let today = Day(now, in: Views.berlin)
            for path in ["weights?from=\(today)&to=\(today)&tz=Europe/Berlin&devices=\(world.bobScale.id)",
                         "hrv?devices=\(world.bobScale.id)&through=\(today)",
                         "energy?from=\(today)&to=\(today)&foodLogs=\(world.bobScale.id)",
                         "devices?since=0&device=\(world.bobScale.id)", "vitals"] {
                let answer = try await Views.get(world, "/v1.1/hmon/views/screens/" + path, token: token)
                #expect(answer.status == 200, "\(path)")
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(!text.contains("91.5") && !text.contains(world.bobScale.id), "\(path): \(text.prefix(300))")
            }
        }
    }

    @Test func aBadScreenQueryIsA400NamingTheParameter() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            for (path, parameter) in [("devices", "since"), ("devices?since=0&count=0", "count"), ("hrv?through=tomorrow", "through"),
                                      ("insights?today=2026-11-20&days=2", "days"), ("vitals?count=0", "count"), ("energy?from=2026-11-20&to=2026-11-20&learned=maybe", "learned"),
                                      ("weights?from=2026-11-20&to=2026-11-20&devices=" + Array(repeating: "x", count: 51).joined(separator: ","), "devices")] {
                let answer = try await Views.get(world, "/v1.1/hmon/views/screens/" + path, token: token)
                #expect(answer.status == 400, "\(path)")
                #expect(String(decoding: answer.body, as: UTF8.self).contains(parameter), "\(path)")
            }
            #expect(try await Views.get(world, "/v1.1/hmon/views/screens/overview", token: nil).status == 401)
        }
    }
}
