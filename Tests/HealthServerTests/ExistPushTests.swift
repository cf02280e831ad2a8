import Foundation
import HealthCore
import HealthModel
import HealthServer
import Synchronization
import TestSupport
import Testing
import SQLiteStorage
import RemoteClient

/// `hmon exist push` from one hmon store into a second hmon server, and `hmon token` for personal tokens.
@Suite(.heavy) struct ExistPushTests {
    /// The pushing side: a store of its own with one user and a scale.
    struct Source {
        let store: LocalStore
        let user: User
        let scale: Device
        let path: String

        init(in folder: URL) async throws {
            path = folder.appendingPathComponent("source.sqlite").path
            store = try LocalStore(url: URL(fileURLWithPath: path), passwordHasher: .fastForTests)
            user = try await store.createUser(NewAccount(name: "sam", password: "correct horse"))
            scale = try await store.addDevice(name: "Scale", typeID: ServerWorld.withings, userID: user.id)
        }

        func post(_ data: [String: FieldValue], on device: Device? = nil, daysAgo: Int, hour: Int = 8, today: Day) async throws {
            let ts = today.adding(days: -daysAgo).start(in: .current).addingTimeInterval(Double(hour) * 3600).millisecondsSince1970
            try await store.post(NewMessage(sdid: (device ?? scale).id, ts: ts, data: data), userID: user.id)
        }

        func daily(_ days: ClosedRange<Day>) async throws -> DailyAttributes {
            try await Self.daily(store: store, userID: user.id, days: days)
        }

        static func daily(store: LocalStore, userID: String, days: ClosedRange<Day>) async throws -> DailyAttributes {
            let service = LocalHealthService(store: store, userID: userID)
            let first = days.lowerBound.adding(days: -WeightSeriesBuilder.carryDays)
            let totals = try await service.dailyTotals(days: first...days.upperBound, calendar: .current)
            return DailyAttributes.build(totals: totals, days: first...days.upperBound, profile: try await service.profile(), calendar: .current)
        }
    }

    /// The average weigh-in of each day that has one (no carrying).
    static func weighIns(store: LocalStore, userID: String, days: ClosedRange<Day>) async throws -> [Day: Double] {
        let totals = try await LocalHealthService(store: store, userID: userID).dailyTotals(days: days, calendar: .current)
        return totals.compactMapValues { $0[.weight].count > 0 ? $0[.weight].sum / Double($0[.weight].count) : nil }
    }

    /// Both absent, or equal to the 3 decimals the push sends.
    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): abs(a - b) < 0.000_5
        default: false
        }
    }

    @Test func pushingIntoASecondHmonServerLeavesTheSameDailyWeightsAndASecondPushSendsNothing() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("exist-push")
        defer { home.remove() }
        try await ServerWorld.run { world in
            let today = world.today
            let source = try await Source(in: home.folder)
            // Weigh-ins: 80 and 82 fifty days ago (81 that day), 80 forty-five days ago, then none for 40 days
            // (carried 30 days, to 15 days ago; nothing from 14 days ago), 78 five days ago. Body fat 20 % five
            // days ago; 2000 kcal eaten three days ago.
            try await source.post(["weight": .number(80)], daysAgo: 50, hour: 7, today: today)
            try await source.post(["weight": .number(82)], daysAgo: 50, hour: 21, today: today)
            try await source.post(["weight": .number(80)], daysAgo: 45, today: today)
            try await source.post(["weight": .number(78), "fatRatio": .number(20)], daysAgo: 5, today: today)
            let food = try await source.store.addDevice(name: "Food", typeID: BuiltInDeviceType.calorieTracker.deviceType.id,
                                                        userID: source.user.id)
            try await source.post(["calories": .number(2000)], on: food, daysAgo: 3, today: today)

            let token = try await world.rawToken()
            let tokenFile = home.folder.appendingPathComponent("exist-token")
            try Data((token + "\n").utf8).write(to: tokenFile)
            let push = ["exist", "push", "--db", source.path, "--to", world.url.absoluteString, "--token-file", tokenFile.path]

            let dry = try await ServeCommandTests.run(binary, push + ["--dry-run"], input: "", environment: home.environment)
            #expect(dry.status == 0, "\(dry.errors)")
            #expect(dry.output.contains("\(today.adding(days: -50))  weight  81\n"))
            #expect(dry.output.contains("weight: 42 to send, 0 unchanged"), "\(dry.output)")
            #expect(try await world.store.devices(userID: world.alice.id).count == 1, "a dry run sends nothing")

            let first = try await ServeCommandTests.run(binary, push, input: "", environment: home.environment)
            #expect(first.status == 0, "\(first.errors)")
            // 36 days from fifty to fifteen days ago, and the 6 from five days ago to today.
            #expect(first.output.contains("weight: 42 sent, 0 unchanged"), "\(first.output)")
            #expect(first.output.contains("body_fat: 1 sent"))
            #expect(first.output.contains("energy: 1 sent"))
            #expect(first.output.contains("requests to \(world.url.absoluteString)"))
            #expect(!first.output.contains(token) && !first.errors.contains(token), "the token is never printed")
            #expect(first.errors.contains("can be read by others: chmod 600"), "the file was written 0644: \(first.errors)")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile.path)

            // The receiving store holds, each day, one weigh-in: the day's weight as the sending store has it.
            let days = today.adding(days: -60)...today
            let sent = try await source.daily(days)
            let received = try await Self.weighIns(store: world.sqlite, userID: world.alice.id, days: days)
            for ordinal in days.lowerBound.ordinal...days.upperBound.ordinal {
                let day = Day(ordinal: ordinal)
                #expect(Self.same(sent.value(.weight, on: day), received[day]), "\(day)")
            }
            #expect(received[today.adding(days: -50)] == 81)
            #expect(received[today.adding(days: -15)] == 80, "carried 30 days")
            #expect(received[today.adding(days: -14)] == nil, "not past 30 days")
            #expect(received[today] == 78)
            let bearer = try await world.rawToken()
            let fat = try await world.get("/api/2/attributes/values/?attribute=body_fat&limit=1&date_max=\(today.adding(days: -5))", token: bearer)
            #expect(try fat.results.first?["value"] as? Double == 0.2)
            let energy = try await world.get("/api/2/attributes/values/?attribute=energy&limit=1&date_max=\(today.adding(days: -3))", token: bearer)
            #expect(abs((try energy.results.first?["value"] as? Double ?? 0) - 8368) < 1e-6, "2000 kcal × 4.184 kJ")

            let second = try await ServeCommandTests.run(binary, push, input: "", environment: home.environment)
            #expect(second.status == 0)
            #expect(second.errors.isEmpty, "\(second.errors)")
            #expect(second.output.contains("weight: 0 sent, 42 unchanged"), "\(second.output)")
            #expect(second.output.contains("0 requests to"), "\(second.output)")

            // A new weigh-in two days ago changes that day and the two carried after it, and nothing else.
            try await source.post(["weight": .number(75)], daysAgo: 2, today: today)
            let third = try await ServeCommandTests.run(binary, push, input: "", environment: home.environment)
            #expect(third.output.contains("weight: 3 sent, 39 unchanged"), "\(third.output)")
            let updated = try await Self.weighIns(store: world.sqlite, userID: world.alice.id, days: days)
            #expect(updated[today] == 75 && updated[today.adding(days: -2)] == 75 && updated[today.adding(days: -3)] == 78)
            #expect(updated.values.count == 42, "replaced, not added: one weigh-in a day")
        }
    }

    @Test func aPushWithoutATokenOrWithABadOneSaysWhatToDo() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("exist-push-token")
        defer { home.remove() }
        try await ServerWorld.run { world in
            let source = try await Source(in: home.folder)
            try await source.post(["weight": .number(80)], daysAgo: 1, today: world.today)
            let push = ["exist", "push", "--db", source.path, "--to", world.url.absoluteString]
            let none = try await ServeCommandTests.run(binary, push, input: "", environment: home.environment)
            #expect(none.status == 1)
            #expect(none.errors.contains("--token-file") && none.errors.contains("HMON_EXIST_TOKEN"), "\(none.errors)")
            var environment = home.environment
            environment["HMON_EXIST_TOKEN"] = "wrong-token-0123"
            let wrong = try await ServeCommandTests.run(binary, push, input: "", environment: environment)
            #expect(wrong.status == 1)
            #expect(wrong.errors.contains("401"), "\(wrong.errors)")
            #expect(!wrong.errors.contains("wrong-token-0123"))
            let notURL = try await ServeCommandTests.run(binary, ["exist", "push", "--db", source.path, "--to", "exist.io"],
                                                         input: "", environment: environment)
            #expect(notURL.status == 2)
        }
    }

    /// In-process: the server's clock is the test's, and the pusher's waits move it instead of sleeping.
    @Test func aPushWaitsOutTheRateLimitAndTakesBackAnAttributeAnotherAppTook() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-exist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let clock = TestClock()
        let stolen = Mutex(false)
        var configuration = ServerConfiguration.forTests(rateLimit: RateLimit(perMinute: 3, perDay: 1000), clock: { clock.now })
        // The first update finds weight taken by another app, as if the user had just given it away.
        configuration.beforeEachRequest = { path in
            guard path.hasPrefix("/api/2/attributes/update"), stolen.withLock({ done in defer { done = true }; return !done }) else { return }
            _ = try? await store.acquireExist(.weight, userID: alice.id, clientID: "other-app", service: "Other app")
        }
        let server = try await RunningServer.start(store: store, configuration: configuration)
        defer { Task { await server.stop() } }
        let (token, _) = try await store.createToken(kind: .access, userID: alice.id, clientID: "hmon", scope: "read,write",
                                                     ttl: 3600, now: clock.now)

        let source = try await Source(in: folder)
        let today = Day(clock.now, in: .current)
        var readings: [NewMessage] = []
        for daysAgo in 0..<100 {
            let ts = today.adding(days: -daysAgo).start(in: .current).addingTimeInterval(3600).millisecondsSince1970
            readings.append(NewMessage(sdid: source.scale.id, ts: ts, data: ["weight": .number(70 + Double(daysAgo % 7) / 10)]))
        }
        try await source.store.postBatch(readings, userID: source.user.id)

        let waited = Mutex<[Double]>([])
        let options = ExistPusher.Options(server: server.url, token: token, now: clock.now, sleep: { seconds in
            waited.withLock { $0.append(seconds) }
            clock.advance(by: seconds)
        })
        let summary = try await ExistPusher(service: UserServices(store: source.store).service(for: source.user.id), options: options).run()
        #expect(summary.counts[.weight]?.sent == 100)
        #expect(summary.counts[.weight]?.failed == 0)
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        // acquire, 3 batches of 35, one re-acquire and the stolen batch again: 6 answered, 3 allowed a minute.
        #expect(summary.rateLimitWaits >= 1)
        #expect(waited.withLock { $0 }.allSatisfy { (1...60).contains($0) })
        #expect(try await store.existOwners(userID: alice.id)[.weight]?.clientID == "hmon", "taken back")
        let received = try await Self.weighIns(store: store, userID: alice.id, days: today.adding(days: -99)...today)
        let sent = try await source.daily(today.adding(days: -99)...today)
        #expect(received.count == 100)
        for ordinal in today.adding(days: -99).ordinal...today.ordinal {
            #expect(Self.same(received[Day(ordinal: ordinal)], sent.value(.weight, on: Day(ordinal: ordinal))))
        }
    }

    @Test func personalTokensAreShownOnceListedWithoutThemselvesAndRevoked() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("exist-token")
        defer { home.remove() }
        try await ServerWorld.run { world in
            let db = world.sqlite.path
            let refused = try await ServeCommandTests.run(binary, ["token", "add", "--db", db, "--user", "alice"], input: "",
                                                          environment: home.environment)
            #expect(refused.status == 2)
            #expect(refused.errors.contains("--read-only"))
            let added = try await ServeCommandTests.run(binary, ["token", "add", "--read-only", "--db", db, "--user", "alice",
                                                                 "--label", "Exist widget"], input: "", environment: home.environment)
            #expect(added.status == 0, "\(added.errors)")
            let token = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("token:") }?
                .dropFirst("token:".count).trimmingCharacters(in: .whitespaces))
            let id = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("token id:") }?
                .dropFirst("token id:".count).trimmingCharacters(in: .whitespaces))
            #expect(try await world.getWithPersonal("/api/2/attributes/", token: token).status == 200)

            let listed = try await ServeCommandTests.run(binary, ["token", "list", "--db", db], input: "", environment: home.environment)
            #expect(listed.output.contains(id) && listed.output.contains("alice") && listed.output.contains("Exist widget"))
            #expect(!listed.output.contains(token), "only the hash is kept")

            let revoked = try await ServeCommandTests.run(binary, ["token", "revoke", id, "--db", db], input: "", environment: home.environment)
            #expect(revoked.status == 0)
            // Another process revoked it: the server's token cache notices the store changed.
            #expect(try await Waiting.until { try await world.getWithPersonal("/api/2/attributes/", token: token).status == 401 })
            let again = try await ServeCommandTests.run(binary, ["token", "revoke", id, "--db", db], input: "", environment: home.environment)
            #expect(again.status == 1)
            #expect(again.errors.contains("hmon token list"))
        }
    }
}
