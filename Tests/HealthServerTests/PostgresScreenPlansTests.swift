import Foundation
import HealthCore
import HealthModel
import PostgresStorage
import TestSupport
import Testing

/// Every screen's queries on PostgreSQL are planned with an index that bounds them to the person and the
/// days asked: beside alice's month sit 10,000 readings of bob's, and computing all six of her screens the
/// way `hmon serve` does reads far fewer rows of the readings' table than bob alone holds, by index, with no
/// sequential scan of the readings or the day sums (planned with `enable_seqscan = off`, which the planner
/// still falls back to when no index fits). A query whose index went missing would read every row, as it
/// would a million on a real store; here it shows in `pg_stat_user_tables` and `pg_stat_user_indexes`.
@Suite(.heavy, .enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct PostgresScreenPlansTests {
    @Test func everyScreenReadsTheReadingsAndTheDaySumsThroughTheirIndexes() async throws {
        let url = try await TestPostgres.newDatabase()
        let name = try #require(url.split(separator: "?")[0].split(separator: "/").last.map(String.init))
        _ = try await offThePool { try TestPostgres.psql(url, "ALTER DATABASE \(name) SET enable_seqscan = off") }
        let calendar = ServerViewsTests.berlin
        let now = Date(timeIntervalSince1970: 1_795_190_400)  // 2026-11-20 12:00 UTC
        let today = Day(now, in: calendar)

        // A month of weigh-ins, meals and activity, written and then closed, so its scans are counted apart.
        let writer = try await PostgresStore.open(try PostgresLocation(url), passwordHasher: .fastForTests, maximumConnections: 2)
        let user = try await writer.createUser(NewAccount(name: "alice", password: "correct horse battery"))
        let service = LocalHealthService(store: writer, userID: user.id)
        let scale = try await service.addDevice(name: "Scale", typeID: BuiltInDeviceType.withings.deviceType.id)
        let food = try await service.addDevice(name: "Food", typeID: BuiltInDeviceType.calorieTracker.deviceType.id)
        let watch = try await service.addDevice(name: "Watch", typeID: BuiltInDeviceType.activityTracker.deviceType.id)
        for day in 0..<30 {
            let morning = today.adding(days: -day).start(in: calendar).addingTimeInterval(7 * 3600).millisecondsSince1970
            try await service.post(NewMessage(sdid: scale.id, ts: morning, data: [Field.weight: .number(80 - Double(day) / 20),
                                                                             Field.fatRatio: .number(24)]))
            try await service.post(NewMessage(sdid: food.id, ts: morning + 3_600_000,
                                              data: [Field.calories: .number(2_100), Field.comments: .text("porridge")]))
            try await service.post(NewMessage(sdid: watch.id, ts: morning + 7_200_000, data: [Field.activeEnergy: .number(450)]))
        }
        let bob = try await writer.createUser(NewAccount(name: "bob", password: "correct horse battery"))
        let bobScale = try await writer.addDevice(name: "Scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: bob.id)
        let start = today.adding(days: -400).start(in: calendar).millisecondsSince1970
        for batch in 0..<10 {
            let readings = (0..<1_000).map { i in
                NewMessage(sdid: bobScale.id, ts: start + Int64(batch * 1_000 + i) * 1_700_000, data: [Field.weight: .number(90)])
            }
            _ = try await writer.postBatch(readings, userID: bob.id)
        }
        writer.close()
        let before = try await Self.scans(url)

        let reader = try await PostgresStore.open(try PostgresLocation(url), access: .readWrite, passwordHasher: .fastForTests,
                                                  maximumConnections: 2)
        let screens = LocalHealthService(store: reader, userID: user.id)
        _ = try await screens.devicesScreen(.init(since: today.start(in: calendar), recentDevice: scale.id))
        _ = try await screens.weightsScreen(.init(latestCount: 20, devices: [scale.id], days: today.adding(days: -89)...today, calendar: calendar))
        _ = try await screens.energyScreen(.init(days: today.adding(days: -6)...today, now: now, calendar: calendar,
                                                 foodLogs: [food.id], withLearned: true))
        _ = try await screens.hrvScreen(.init(latestCount: 400, meters: [watch.id], through: today, calendar: calendar))
        _ = try await screens.insightsScreen(.init(today: today, calendar: calendar))
        let overview = try await screens.overviewScreen(.init(days: today.adding(days: -29)...today, now: now, calendar: calendar))
        #expect(overview.energy.count == 30 && overview.weights.points.count > 0, "the screens read the month written")
        reader.close()
        let after = try await Self.scans(url)

        for table in ["messages", "day_totals_cache"] {
            #expect(after[table]?.sequential == before[table]?.sequential, "\(table): \(before[table].map { "\($0)" } ?? "-") → \(after[table].map { "\($0)" } ?? "-")")
        }
        let read = (after["messages"]?.rowsRead ?? 0) - (before["messages"]?.rowsRead ?? 0)
        #expect(read > 0, "the readings were read through an index")
        // alice's 90 readings a few times over, by the six screens' queries; bob's 10,000 stay unread.
        #expect(read < 5_000, "the six screens read \(read) rows of the readings")
    }

    /// Each table's sequential and index scans so far, once the database's connections have ended (a
    /// connection's counts reach the statistics when it ends, or a while after).
    static func scans(_ url: String) async throws -> [String: (sequential: Int, rowsRead: Int)] {
        // psql runs on a thread of its own: waiting for a child must not hold a thread of the task pool.
        let gone = try await offThePool {
            Waiting.blockingUntil {
                (try? TestPostgres.psql(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")) == "0"
            }
        }
        #expect(gone, "the store's connections ended")
        // Rows read: those a sequential scan went through and the index entries index scans went through.
        let rows = try await offThePool {
            try TestPostgres.psql(url, """
                SELECT t.relname, t.seq_scan, t.seq_tup_read + coalesce((SELECT sum(i.idx_tup_read) FROM pg_stat_user_indexes i
                                                                        WHERE i.relid = t.relid), 0)
                FROM pg_stat_user_tables t
                """)
        }
        var scans: [String: (sequential: Int, rowsRead: Int)] = [:]
        for line in rows.split(separator: "\n") {
            let fields = line.split(separator: "|").map(String.init)
            guard fields.count == 3, let sequential = Int(fields[1]), let read = Int(fields[2]) else { continue }
            scans[fields[0]] = (sequential, read)
        }
        return scans
    }
}
