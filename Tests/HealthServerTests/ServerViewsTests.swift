import Foundation
import HealthCore
import HealthModel
import HealthServer
import RemoteClient
import SAMIContract
import Synchronization
import TestSupport
import Testing

/// hmon's views (`/v1.1/hmon/views/…`): each screen's data computed by the server, equal to what the local
/// service computes from the same store, in one request a screen; validators that make an unchanged view
/// cost a 304; and the client's fallback against a server without them.
@Suite struct ServerViewsTests {
    /// A week of alice's life: weigh-ins with gaps, meals, activity, HRV, and a profile the BMR can use.
    static func fill(_ world: ServerWorld, calendar: Calendar, now: Date) async throws {
        let local = LocalHealthService(store: world.store, userID: world.alice.id)
        try await local.updateProfile(Profile(birthDate: Day(year: 1988, month: 3, day: 14), sex: .female, heightCm: 168, goalKg: 68))
        let food = try await local.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id)
        let watch = try await local.addDevice(name: "Watch", typeID: BuiltInDeviceType.activityTracker.deviceType.id)
        let today = Day(now, in: calendar)
        let start = today.adding(days: -20).start(in: calendar)
        for day in 0...20 {
            let morning = start.addingTimeInterval(Double(day) * 86_400 + 7 * 3600).millisecondsSince1970
            if day % 3 != 1 {  // gaps, so the series carries values forward
                try await local.post(NewMessage(sdid: world.aliceScale.id, ts: morning, data: [Field.weight: .number(72 - Double(day) / 10)]))
            }
            guard morning < now.millisecondsSince1970 else { continue }
            try await local.post(NewMessage(sdid: food.id, ts: morning + 60_000, data: [Field.calories: .number(1_800 + Double(day * 7))]))
            try await local.post(NewMessage(sdid: watch.id, ts: morning + 120_000, data: [Field.activeEnergy: .number(300.5 + Double(day))]))
        }
    }

    /// `now` travels in whole milliseconds; the local side is given the same instant.
    static func wholeMilliseconds(_ date: Date) -> Date { Date(millisecondsSince1970: date.millisecondsSince1970) }

    /// The devices screen as both sides show it: the user's card keeps whole seconds on the wire (the
    /// contract's `createdOn`), which the screen does not show.
    static func shown(_ overview: DevicesOverview) -> DevicesOverview {
        var shown = overview
        shown.user.createdOn = Date(timeIntervalSince1970: overview.user.createdOn.timeIntervalSince1970.rounded(.down))
        shown.user.modifiedOn = Date(timeIntervalSince1970: overview.user.modifiedOn.timeIntervalSince1970.rounded(.down))
        return shown
    }

    /// A report's daily values with a missing day (NaN, which equals nothing) as nil, by attribute name.
    static func comparable(_ report: InsightsReport) -> [String: [Double?]] {
        Dictionary(uniqueKeysWithValues: report.daily.values.map { key, values in
            ("\(key)", values.map { $0.isNaN ? nil : $0 })
        })
    }

    static let berlin: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    @Test(arguments: StoreEngine.available)
    func everyViewEqualsTheLocalServicesFiguresAndCostsOneRequest(_ engine: StoreEngine) async throws {
        let requests = Mutex<[String]>([])
        try await ServerWorld.run(engine: engine, beforeEachRequest: { path in requests.withLock { $0.append(path) } }) { world in
            let now = Self.wholeMilliseconds(world.clock.now)
            try await Self.fill(world, calendar: Self.berlin, now: now)
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let remote = try await world.aliceClient()
            let today = Day(now, in: Self.berlin)
            let month = today.adding(days: -29)...today
            let week = today.adding(days: -6)...today

            func cost<T>(_ work: () async throws -> T) async throws -> (T, [String]) {
                requests.withLock { $0 = [] }
                let value = try await work()
                return (value, requests.withLock { $0 })
            }
            let (overview, overviewRequests) = try await cost { try await remote.devicesOverview() }
            #expect(overview == Self.shown(try await local.devicesOverview()))
            #expect(overviewRequests.count == 1, "\(overviewRequests)")

            let (series, seriesRequests) = try await cost { try await remote.weightSeries(days: month, calendar: Self.berlin) }
            #expect(series == (try await local.weightSeries(days: month, calendar: Self.berlin)))
            #expect(series.points.contains { $0.isCarried }, "the fill leaves gaps the series carries over")
            #expect(seriesRequests.count == 1, "\(seriesRequests)")

            let (energy, energyRequests) = try await cost { try await remote.energySummaries(for: week, now: now, calendar: Self.berlin) }
            #expect(energy == (try await local.energySummaries(for: week, now: now, calendar: Self.berlin)))
            #expect(energy.count == 7 && energy.allSatisfy(\.isComplete))
            #expect(energyRequests.count == 1, "\(energyRequests)")

            let (totals, totalsRequests) = try await cost { try await remote.dailyTotals(days: month, calendar: Self.berlin) }
            #expect(totals == (try await local.dailyTotals(days: month, calendar: Self.berlin)))
            #expect(totalsRequests.count == 1, "\(totalsRequests)")

            let query = ReadingsQuery(from: 0, field: Field.weight, order: .desc, limit: 5)
            let (readings, readingsRequests) = try await cost { try await remote.readings(query) }
            #expect(readings == (try await local.readings(query)))
            #expect(readings.count == 5)
            #expect(readingsRequests.count == 1, "\(readingsRequests)")

            // The trend and the insights, built from those views, match too.
            let (trend, trendRequests) = try await cost { try await remote.weightTrendReport(now: now, calendar: Self.berlin) }
            #expect(trend == (try await local.weightTrendReport(now: now, calendar: Self.berlin)))
            #expect(trendRequests.count <= 3, "\(trendRequests)")
            let remoteReport = try await remote.insightsReport(now: now, calendar: Self.berlin)
            let localReport = try await local.insightsReport(now: now, calendar: Self.berlin)
            #expect(Self.comparable(remoteReport) == Self.comparable(localReport))
            #expect(remoteReport.averages == localReport.averages && remoteReport.findings == localReport.findings)
        }
    }

    @Test func anUnchangedViewIsA304AndAMealChangesOnlyTheViewsItIsIn() async throws {
        let requests = Mutex<[String]>([])
        try await ServerWorld.run(beforeEachRequest: { path in requests.withLock { $0.append(path) } }) { world in
            let now = world.clock.now
            try await Self.fill(world, calendar: Self.berlin, now: now)
            let token = try await world.token()
            let today = Day(now, in: Self.berlin)
            let weights = "/v1.1/hmon/views/weights?from=\(today.adding(days: -13))&to=\(today)&tz=Europe/Berlin"
            let energy = "/v1.1/hmon/views/energy?from=\(today)&to=\(today)&tz=Europe/Berlin&now=\(now.millisecondsSince1970)"

            let firstWeights = try await Self.get(world, weights, token: token)
            #expect(firstWeights.status == 200)
            let weightsTag = try #require(firstWeights.etag)
            let firstEnergy = try await Self.get(world, energy, token: token)
            let energyTag = try #require(firstEnergy.etag)
            #expect(try await Self.get(world, weights, token: token, ifNoneMatch: weightsTag).status == 304)

            // A meal: the energy view changes, the weights view does not.
            let food = try #require(try await LocalHealthService(store: world.store, userID: world.alice.id).devices().first { $0.name == "Food log" })
            try await LocalHealthService(store: world.store, userID: world.alice.id)
                .post(NewMessage(sdid: food.id, ts: now.millisecondsSince1970 - 1_000, data: [Field.calories: .number(640)]))
            let afterMeal = try await Self.get(world, weights, token: token, ifNoneMatch: weightsTag)
            #expect(afterMeal.status == 304)
            #expect(afterMeal.body.isEmpty)
            let energyAfter = try await Self.get(world, energy, token: token, ifNoneMatch: energyTag)
            #expect(energyAfter.status == 200)
            #expect(energyAfter.etag != energyTag)
            let view = try JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.EnergyView>.self, from: energyAfter.body).data
            #expect(view.days.first?.consumed == (firstEnergy.consumed ?? 0) + 640)

            // The remote client sends the validator it holds: asking again costs a 304.
            let remote = try await world.aliceClient()
            let span = today.adding(days: -13)...today
            let first = try await remote.weightSeries(days: span, calendar: Self.berlin)
            requests.withLock { $0 = [] }
            #expect(try await remote.weightSeries(days: span, calendar: Self.berlin) == first)
            #expect(requests.withLock { $0 }.count == 1)
        }
    }

    @Test func aServerWithoutViewsIsReadFromItsReadingsWithTheSameFiguresAndSaysSoOnce() async throws {
        try await ServerWorld.run(servesViews: false) { world in
            let now = Self.wholeMilliseconds(world.clock.now)
            try await Self.fill(world, calendar: Self.berlin, now: now)
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let remote = try await world.aliceClient()
            #expect(remote.serverNotice == nil)
            let today = Day(now, in: Self.berlin)
            let span = today.adding(days: -13)...today
            #expect(try await remote.weightSeries(days: span, calendar: Self.berlin)
                    == (try await local.weightSeries(days: span, calendar: Self.berlin)))
            #expect(try await remote.energySummary(for: today, now: now, calendar: Self.berlin)
                    == (try await local.energySummary(for: today, now: now, calendar: Self.berlin)))
            #expect(try await remote.devicesOverview() == Self.shown(try await local.devicesOverview()))
            let notice = try #require(remote.serverNotice)
            #expect(notice.contains("older server"))
        }
    }

    /// Hand-worked (HRV4Training's range, docs/methods.md): 14 mornings at 40 ms and 6 at 60 ms before the newest;
    /// ln 40 = 3.688879, ln 60 = 4.094345. Mean of the 20 logs = (14 × 3.688879 + 6 × 4.094345) / 20 = 3.810519;
    /// the deviations are −0.121640 (×14) and 0.283826 (×6): (14 × 0.0147963 + 6 × 0.0805572) / 19 = 0.0363417,
    /// SD = 0.190635; the range is e^(3.810519 ± 0.095317) = 41.07–49.69 ms. A newest 55 ms lies above it: green.
    @Test func theHRVViewGivesTheNormalRangeAndRatesTheNewestMeasurement() async throws {
        try await ServerWorld.run { world in
            let now = world.clock.now
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let meter = try await local.addDevice(name: "Welltory", typeID: BuiltInDeviceType.hrvMeter.deviceType.id)
            let token = try await world.token()
            let building = try JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.HRVView>.self,
                                                    from: try await Self.get(world, "/v1.1/hmon/views/hrv", token: token).body).data
            #expect(building.baseline == nil && building.latest == nil && building.measurements == 0)
            for day in 0..<20 {
                let ts = now.addingTimeInterval(-Double(21 - day) * 86_400).millisecondsSince1970
                try await local.post(NewMessage(sdid: meter.id, ts: ts, data: [Field.rmssd: .number(day < 14 ? 40 : 60)]))
            }
            let newest = now.addingTimeInterval(-3600).millisecondsSince1970
            try await local.post(NewMessage(sdid: meter.id, ts: newest, data: [Field.rmssd: .number(55)]))
            let view = try JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.HRVView>.self,
                                                from: try await Self.get(world, "/v1.1/hmon/views/hrv", token: token).body).data
            let latest = try #require(view.latest)
            #expect(latest.ts == newest && latest.rmssdMs == 55 && latest.rating == "green")
            #expect(view.measurements == 21)
            // The range now takes the newest in too: 21 logs.
            let logs = (0..<14).map { _ in log(40.0) } + (0..<6).map { _ in log(60.0) } + [log(55.0)]
            let mean = logs.reduce(0, +) / 21
            let sd = (logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 20).squareRoot()
            let baseline = try #require(view.baseline)
            #expect(abs(baseline.lowMs - exp(mean - sd / 2)) < 1e-9 && abs(baseline.highMs - exp(mean + sd / 2)) < 1e-9)
            #expect(baseline.measurements == 21)
            // The hand-worked range before the newest: what rated it green.
            let before = HRVBaseline.band(before: Date(millisecondsSince1970: newest),
                                          history: (0..<20).map { (date: now.addingTimeInterval(-Double(21 - $0) * 86_400), rmssdMs: $0 < 14 ? 40.0 : 60.0) })
            #expect(abs((before?.lowMs ?? 0) - 41.07) < 0.01 && abs((before?.highMs ?? 0) - 49.69) < 0.01)
        }
    }

    @Test func aBadSpanOrZoneIsA400NamingTheParameter() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            for (query, parameter) in [("from=2026-11-20&to=2026-11-01", "to"), ("from=2026-13-01&to=2026-11-01", "from"),
                                       ("from=2026-11-01&to=2026-11-02&tz=Mars/Olympus", "tz"), ("to=2026-11-02", "from"),
                                       ("from=2000-01-01&to=2026-11-02", "to")] {
                let answer = try await Self.get(world, "/v1.1/hmon/views/weights?" + query, token: token)
                #expect(answer.status == 400, "\(query)")
                #expect(String(decoding: answer.body, as: UTF8.self).contains(parameter), "\(query)")
            }
            #expect(try await Self.get(world, "/v1.1/hmon/views/devices", token: nil).status == 401)
        }
    }

    @Test func aDashboardReadingUpToTheLimitDoesNotUseUpTheWeighInsAllowance() async throws {
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 5, perDay: 100)) { world in
            let token = try await world.token()
            // Read until refused (the token's own sign-in read counts too).
            var statuses: [Int] = []
            while statuses.last != 429 && statuses.count < 10 {
                statuses.append(try await Self.get(world, "/v1.1/hmon/views/devices", token: token).status)
            }
            #expect(statuses.last == 429, "reads have their limit: \(statuses)")
            #expect(statuses.dropLast().allSatisfy { $0 == 200 } && statuses.count >= 4, "\(statuses)")
            let post = try await RawHTTP.send("POST", world.url.absoluteString + "/v1.1/messages", token: token,
                                              headers: ["Content-Type": "application/json"],
                                              body: Data(#"{"sdid":"\#(world.aliceScale.id)","data":{"weight":71.2}}"#.utf8))
            #expect(post.status == 200, "the write has a budget of its own")
        }
    }

    /// Past the write budget the server answers 429 with `Retry-After`; the client waits that long (on the
    /// world's clock, which the limit counts by), saying meanwhile why and when, and sends the weigh-in
    /// again: nothing typed is lost.
    @Test func aWeighInPutOffByTheLimitIsSentAgainAfterRetryAfterAndStored() async throws {
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 2, perDay: 100)) { world in
            let said = Mutex<[String?]>([])
            let client = Mutex<RemoteHealthService?>(nil)
            let remote = RemoteHealthService(server: world.url, options: .init(timeout: TestServerLimits.clientTimeout), now: { world.clock.now },
                                             sleep: { wait in
                                                 said.withLock { $0.append(client.withLock { $0 }?.serverNotice) }
                                                 world.clock.advance(by: Double(wait.components.seconds))
                                             })
            client.withLock { $0 = remote }
            _ = try await remote.signIn(name: "alice", password: ServerWorld.password)
            let start = world.clock.now
            var mids: [String] = []
            for kg in [71.0, 71.1, 71.2] {
                mids.append(try await remote.post(NewMessage(sdid: world.aliceScale.id, ts: start.millisecondsSince1970 - 60_000,
                                                             data: [Field.weight: .number(kg)])))
            }
            #expect(Set(mids).count == 3)
            #expect(world.clock.now > start, "the third waited out the minute")
            let notices = said.withLock { $0 }
            #expect(!notices.isEmpty && notices.allSatisfy { $0?.contains("is limiting requests (429): saving again at") == true },
                    "while it waits the status bar says why and when: \(notices)")
            #expect(remote.serverNotice == nil, "and says nothing once it is saved")
            let stored = try await LocalHealthService(store: world.store, userID: world.alice.id)
                .readings(ReadingsQuery(field: Field.weight, order: .desc, limit: 10))
            #expect(stored.count == 3)
        }
    }

    // MARK: Plain HTTP

    struct Answer {
        var status: Int
        var etag: String?
        var body: Data
        /// The first day's `consumed`, for an energy view.
        var consumed: Double? {
            (try? JSONDecoder().decode(SAMI.DataEnvelope<HMonViews.EnergyView>.self, from: body))?.data.days.first?.consumed
        }
    }

    static func get(_ world: ServerWorld, _ pathAndQuery: String, token: String?, ifNoneMatch: String? = nil) async throws -> Answer {
        let reply = try await RawHTTP.send("GET", world.url.absoluteString + pathAndQuery, token: token,
                                           headers: ifNoneMatch.map { ["If-None-Match": $0] } ?? [:])
        return Answer(status: reply.status, etag: reply.header("ETag"), body: reply.body)
    }
}
