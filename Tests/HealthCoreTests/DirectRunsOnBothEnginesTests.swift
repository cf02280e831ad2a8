import Foundation
import ModelTestSupport
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage
@testable import PostgresStorage

/// A direct run that only shows data (`hmon snapshot --db`, `hmon insights --db`) opens its store to read.
/// On the same data, copied from SQLite to PostgreSQL, both engines' read-only runs show the same screens,
/// the second PostgreSQL run included (it reads the day sums the first kept); and a kept day that another
/// process wrote in since is summed again, not read back.
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct DirectRunsOnBothEnginesTests {
    static let berlin = calendar("Europe/Berlin")
    static let now = date("2026-11-20 21:00", in: berlin)
    static var today: Day { Day(now, in: berlin) }

    /// Five weeks of a scale's weigh-ins, a watch's samples and a food log's meals, and a profile.
    static func fill(_ world: StoreWorld) async throws -> User {
        let (alice, service) = try await world.user("alice")
        try await service.updateProfile(Profile(birthDate: Day(iso: "1988-04-12"), sex: .female, heightCm: 168, goalKg: 65))
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let watch = try await world.device(.activityTracker, named: "Watch", for: service)
        let food = try await world.device(.calorieTracker, named: "Food log", for: service)
        var readings: [NewMessage] = []
        for back in 0..<35 {
            let day = today.adding(days: -back).start(in: berlin)
            func at(_ hours: Double) -> Int64 { day.addingTimeInterval(hours * 3600).millisecondsSince1970 }
            readings.append(NewMessage(sdid: scale.id, ts: at(7), data: [Field.weight: .number(72 - Double(back % 9) / 10)]))
            for hour in [9.0, 13, 18] {
                readings.append(NewMessage(sdid: watch.id, ts: at(hour), data: [Field.activeEnergy: .number(90 + Double(back % 5) * 7),
                                                                               Field.steps: .number(Double(2000 + back * 37))]))
            }
            readings.append(NewMessage(sdid: watch.id, ts: at(6), data: [Field.restingHeartRate: .number(Double(52 + back % 6))]))
            readings.append(NewMessage(sdid: food.id, ts: at(12.5), data: [Field.calories: .number(Double(600 + back % 4 * 50))]))
            readings.append(NewMessage(sdid: food.id, ts: at(19), data: [Field.calories: .number(Double(800 - back % 3 * 40))]))
        }
        for reading in readings { try await service.post(reading) }
        return alice
    }

    /// What each screen shows, as the dashboard asks for it.
    struct Screens: Equatable {
        var devices: DevicesScreenData
        var weights: WeightsScreenData
        var energy: EnergyScreenData
        var insights: InsightsScreenData
        var overview: OverviewScreenData

        init(_ service: LocalHealthService) async throws {
            let month = today.adding(days: -29)...today
            let ownDevices = try await service.devices()
            let food = try #require(ownDevices.first { $0.name == "Food log" })
            let scale = try #require(ownDevices.first { $0.name == "Scale" })
            devices = try await service.devicesScreen(DevicesScreenData.Ask(since: today.start(in: berlin), recentDevice: food.id))
            weights = try await service.weightsScreen(WeightsScreenData.Ask(latestCount: 20, devices: [scale.id], days: month, calendar: berlin))
            energy = try await service.energyScreen(EnergyScreenData.Ask(days: today.adding(days: -6)...today, now: now, calendar: berlin,
                                                                         foodLogs: [food.id], withLearned: true))
            insights = try await service.insightsScreen(InsightsScreenData.Ask(today: today, calendar: berlin))
            overview = try await service.overviewScreen(OverviewScreenData.Ask(days: month, now: now, calendar: berlin))
        }
    }

    @Test func aReadOnlyRunOnPostgreSQLShowsWhatOneOnSQLiteShowsForTheSameData() async throws {
        let sqlite = try await StoreWorld(.sqlite)
        let alice = try await Self.fill(sqlite)
        let postgres = try await StoreWorld(.postgres)
        try await StoreCopy.copy(from: sqlite.store, to: postgres.store)
        let url = try #require(postgres.postgresURL)

        let fileReader = try LocalStore(url: sqlite.folder.file("hmon.sqlite"), access: .readOnly, passwordHasher: .fastForTests)
        let onSQLite = try await Screens(LocalHealthService(store: fileReader, userID: alice.id))
        #expect(!onSQLite.insights.totals.isEmpty && onSQLite.weights.latest.count == 20 && onSQLite.energy.week.count == 7)

        let tokenBefore = try await postgres.store.changeToken()
        for run in 1...2 {
            let reader = try await PostgresStore.open(try PostgresLocation(url), access: .readOnly, maximumConnections: 2)
            defer { reader.close() }
            let onPostgres = try await Screens(LocalHealthService(store: reader, userID: alice.id))
            #expect(onPostgres == onSQLite, "run \(run)")
        }
        // The first run kept the sums it made (the second read them); that is no change anyone sees.
        #expect(try await postgres.rowCount("day_totals_cache") > 0, "a read-only run keeps its day sums on PostgreSQL")
        #expect(try await postgres.store.changeToken() == tokenBefore, "keeping sums moves no change token")
    }

    @Test func aKeptDayThatAnotherProcessWroteInIsSummedAgainByADirectRun() async throws {
        let postgres = try await StoreWorld(.postgres)
        let alice = try await Self.fill(postgres)
        let url = try #require(postgres.postgresURL)
        let days = Self.today.adding(days: -2)...Self.today
        let reader = try await PostgresStore.open(try PostgresLocation(url), access: .readOnly, maximumConnections: 2)
        defer { reader.close() }
        let service = LocalHealthService(store: reader, userID: alice.id)
        let before = try await service.dailyTotals(days: days, calendar: Self.berlin)
        #expect(before[Self.today]?[.dietaryEnergy] == SumCount(sum: 1400, count: 2))       // 600 + 800
        #expect(try await postgres.rowCount("day_totals_cache") == 3, "the three days are kept")

        // Another process adds a snack to today; the reader's next look sums today again, and only today.
        let food = try #require(try await postgres.store.devices(userID: alice.id).first { $0.name == "Food log" })
        try await postgres.store.post(NewMessage(sdid: food.id, ts: Self.now.millisecondsSince1970 - 600_000,
                                                 data: [Field.calories: .number(150)]), userID: alice.id)
        let after = try await service.dailyTotals(days: days, calendar: Self.berlin)
        #expect(after[Self.today]?[.dietaryEnergy] == SumCount(sum: 1550, count: 3))
        #expect(after[Self.today.adding(days: -1)] == before[Self.today.adding(days: -1)])
    }

    @Test func aDirectRunOnADatabaseThatMayNotBeWrittenStillShowsItsSums() async throws {
        let postgres = try await StoreWorld(.postgres)
        let alice = try await Self.fill(postgres)
        let url = try #require(postgres.postgresURL)
        let database = try #require(URLComponents(string: url)?.path.dropFirst())
        // Every new session of the database reads only, as on a standby.
        _ = try await TestPostgres.query(url, "ALTER DATABASE \(database) SET default_transaction_read_only = on")
        let reader = try await PostgresStore.open(try PostgresLocation(url), access: .readOnly, maximumConnections: 2)
        defer { reader.close() }
        let service = LocalHealthService(store: reader, userID: alice.id)
        let days = Self.today.adding(days: -2)...Self.today
        for _ in 0..<2 {
            let totals = try await service.dailyTotals(days: days, calendar: Self.berlin)
            #expect(totals[Self.today]?[.dietaryEnergy] == SumCount(sum: 1400, count: 2))
        }
        #expect(try await postgres.rowCount("day_totals_cache") == 0, "nothing kept where nothing may be written")
    }
}
