import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import PostgresStorage

/// What only the PostgreSQL store has to do: its schema's versions, refusing a database that is not
/// hmon's, several processes on one database. (Everything both stores do is in the suites that run on
/// `StoreEngine.available`.)
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct PostgresStoreTests {
    private func open(_ url: String, _ access: StoreAccess = .create) async throws -> PostgresStore {
        try await PostgresStore.open(try PostgresLocation(url), access: access, passwordHasher: .fastForTests, maximumConnections: 2)
    }

    @Test func anEmptyDatabaseGetsTheLatestSchemaOnceAndSaysItWasCreated() async throws {
        let url = try await TestPostgres.newDatabase()
        let first = try await open(url)
        #expect(first.wasCreated)
        #expect(try await TestPostgres.query(url, "SELECT application || ' ' || version FROM hmon_meta") == "hmon \(PostgresSchema.latestVersion)")
        // The same version numbers as SQLite's migrations: v9 is the per-day sums, v13 the generic scale on both;
        // v15 (the readings' foreign keys replaced by a lock and triggers) is PostgreSQL's own; from v16 (a code's
        // PKCE challenge; v17 the push links; v20 a reading's ids as bytes; v21 body water, v22 a night's sleep and v23 a
        // ring's readiness, from the kinds' table; v24 the readings' day versions, PostgreSQL's only; v25 a push
        // link's signing secret and the app's user it follows; v26 an HRV mean's sample count; v30 the writes announced by
        // triggers, PostgreSQL's only; v31 a night's window and stages; v32 the vital signs, from the kinds' table; v33
        // a sleep need in the profile) on, both engines number alike.
        #expect(PostgresSchema.latestVersion == 33)
        #expect(PostgresSchema.migrations.map(\.version) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33])
        let again = try await open(url)
        #expect(!again.wasCreated)
        #expect(try await again.deviceTypes().count == BuiltInDeviceType.allCases.count)
    }

    @Test func aVersion13DatabaseWithReadingsIsBroughtThrough15AndKeepsThem() async throws {
        // A database as hmon left it at version 13: the shipped migrations' own SQL, then an account, a scale
        // and a weigh-in written as that version's hmon wrote them (the numbers generated from the JSON).
        let url = try await TestPostgres.newDatabase()
        for migration in PostgresSchema.migrations where migration.version <= 13 {
            _ = try await TestPostgres.query(url, migration.sql.joined(separator: ";\n") + ";\nUPDATE hmon_meta SET version = \(migration.version)")
        }
        let scale = BuiltInDeviceType.scale.deviceType.id
        _ = try await TestPostgres.query(url, """
            INSERT INTO users (id, name, password_hash, created_at, modified_at) VALUES ('u1', 'alice', 'scrypt$x', 0, 0);
            INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at) VALUES ('d1', 'u1', '\(scale)', 'Scale', 1, 0);
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, data) VALUES ('m1', 'd1', '\(scale)', 'u1', 86400000, 0, '{"weight":70.5}')
            """)
        let store = try await open(url, .readWrite)
        #expect(try await TestPostgres.query(url, "SELECT version FROM hmon_meta") == "\(PostgresSchema.latestVersion)")
        #expect(try await TestPostgres.query(url, "SELECT count(*) FROM pg_constraint WHERE conrelid = 'messages'::regclass AND contype = 'f'") == "0")
        // The generated number stays as it was, now an ordinary column; a new reading's is written by hmon.
        _ = try await store.post(NewMessage(sdid: "d1", ts: 2 * 86_400_000, data: [Field.weight: .number(71)]), userID: "u1")
        #expect(try await TestPostgres.query(url, "SELECT string_agg(weight::text, ' ' ORDER BY ts) FROM messages") == "70.5 71")
        try await store.deleteUser(id: "u1")
        #expect(try await TestPostgres.query(url, "SELECT count(*) FROM messages") == "0", "the account's readings go with it")
    }

    @Test func aDatabaseThatIsNotHmonsOrIsNewerOrMissingIsRefusedWithTheReason() async throws {
        let foreign = try await TestPostgres.newDatabase()
        _ = try await TestPostgres.query(foreign, "CREATE TABLE invoices (id int)")
        let notOurs = await #expect(throws: HealthError.self) { try await open(foreign) }
        #expect(notOurs?.message.contains("belongs to another program") == true)
        #expect(try await TestPostgres.query(foreign, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "1", "nothing was added")

        let newer = try await TestPostgres.newDatabase()
        _ = try await open(newer)
        _ = try await TestPostgres.query(newer, "UPDATE hmon_meta SET version = 99")
        let tooNew = await #expect(throws: HealthError.self) { try await open(newer) }
        #expect(tooNew?.message.contains("was written by a newer hmon") == true)

        let empty = try await TestPostgres.newDatabase()
        let none = await #expect(throws: HealthError.self) { try await open(empty, .readWrite) }
        #expect(none?.message.hasPrefix("no hmon store at postgres://") == true)
    }

    @Test func aWrongPasswordOrAnUnreachableServerIsReportedWithoutThePassword() async throws {
        let unreachable = await #expect(throws: HealthError.self) {
            try await open("postgres://hmon:hunter2@127.0.0.1:9/hmon?sslmode=disable")
        }
        #expect(unreachable?.message.contains("cannot reach PostgreSQL at postgres://hmon@127.0.0.1:9/hmon") == true)
        #expect(unreachable?.message.contains("hunter2") == false)
    }

    @Test func aTokenRevokedThroughOneProcessIsGoneForAnotherAndTheChangeTokenMoves() async throws {
        let url = try await TestPostgres.newDatabase()
        let one = try await open(url)
        let other = try await open(url)
        let user = try await one.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let (token, _) = try await one.createToken(kind: .access, userID: user.id, ttl: 3600)
        #expect(try await other.token(token)?.userID == user.id)
        let before = try await other.changeToken()
        #expect(try await other.revokeToken(token))
        #expect(try await one.token(token) == nil)
        #expect(try await one.changeToken() != before)
        // Reading does not move it.
        let now = try await one.changeToken()
        _ = try await one.users()
        #expect(try await one.changeToken() == now)
    }

    @Test func aCodeRedeemedByTwoProcessesAtOnceIsRedeemedOnce() async throws {
        let url = try await TestPostgres.newDatabase()
        let one = try await open(url)
        let other = try await open(url)
        let user = try await one.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let (code, _) = try await one.createToken(kind: .code, userID: user.id, ttl: 60, family: "f1")
        async let first = one.redeemToken(code, kind: .code)
        async let second = other.redeemToken(code, kind: .code)
        let outcomes = try await [first, second]
        #expect(outcomes.filter { if case .redeemed = $0 { true } else { false } }.count == 1)
        #expect(outcomes.contains(.replayed(revoked: 0)))
    }
}
