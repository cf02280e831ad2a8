import Foundation
import ModelTestSupport
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// `hmon db copy`: SQLite to PostgreSQL and back, every row as it was.
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct StoreCopyTests {
    /// A store with two users, devices, readings (one with a string field), a profile, tokens of every
    /// kind (a spent code with a PKCE challenge), a client with an owner and a Welltory link.
    static func fill(_ world: StoreWorld) async throws {
        let (alice, service) = try await world.user("alice")
        let (_, bobs) = try await world.user("bob")
        try await bobs.updateProfile(Profile(birthDate: Day(iso: "1990-01-02"), sex: .male, heightCm: 181.5, goalKg: 80))
        let scale = try await world.device(.withings, named: "Bathroom scale", for: service)
        let food = try await world.device(.calorieTracker, named: "Food log", for: service)
        let start = date("2026-11-01 07:00").millisecondsSince1970
        for i in 0..<12 {
            try await service.post(NewMessage(sdid: scale.id, ts: start + Int64(i) * 3_600_000, data: ["weight": .number(70 + Double(i) / 10)]))
        }
        try await service.post(NewMessage(sdid: food.id, ts: start, data: ["calories": .number(650.5), "comments": .text("toast, \"jam\"")]))
        try await service.updateProfile(Profile(birthDate: Day(iso: "1988-04-12"), sex: .female, heightCm: 168, goalKg: 65))
        _ = try await world.store.createToken(kind: .access, userID: alice.id, clientID: "c1", scope: "read", ttl: 3600)
        let (code, _) = try await world.store.createToken(kind: .code, userID: alice.id, redirectURI: "app://cb", ttl: 600, family: "fam",
                                                          codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        _ = try await world.store.redeemToken(code, kind: .code)
        _ = try await world.store.createClient(name: "Scale bridge", redirectURI: nil, ownerID: alice.id)
        _ = try await world.store.createWelltoryLink(userID: alice.id)
        let (link, _) = try await world.store.createPushLink(kind: .healthConnect, userID: alice.id, signingSecret: nil, at: Date())
        try await world.store.noteArrival(LinkArrival(readings: [Field.weight: 2], refusals: ["weight[1]: before 2000"]), linkID: link, at: Date())
    }

    /// A bytes column as lowercase hex, on either engine.
    private static func hex(_ column: String, postgres: Bool) -> String {
        postgres ? "encode(\(column), 'hex')" : "lower(hex(\(column)))"
    }

    @Test func aStoreCopiedToPostgreSQLAndBackKeepsEveryRow() async throws {
        let original = try await StoreWorld(.sqlite)
        try await Self.fill(original)
        let postgres = try await StoreWorld(.postgres)
        let copied = try await StoreCopy.copy(from: original.store, to: postgres.store)
        #expect(copied["users"] == 2 && copied["messages"] == 13 && copied["tokens"] == 2)
        // Vacuumed and analyzed at once, not when autovacuum comes by: the planner knows the rows (never
        // analyzed, `reltuples` is -1), and the vacuum is on record (statistics reach the view a moment later).
        #expect(try await postgres.strings("SELECT reltuples::bigint FROM pg_class WHERE relname = 'messages'") == ["13"])
        let vacuumed = await Waiting.until {
            (try? await postgres.strings("SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'messages' AND last_vacuum IS NOT NULL")) == ["1"]
        }
        #expect(vacuumed, "messages was vacuumed by the copy")
        let back = try await StoreWorld(.sqlite)
        // A new SQLite store is not empty of device types, but holds no accounts: it may be copied into.
        try await StoreCopy.copy(from: postgres.store, to: back.store)
        let columns = try await original.columnsToCopy()
        let before = try await original.values(of: columns)
        for world in [postgres, back] {
            let after = try await world.values(of: columns)
            for (column, values) in before.sorted(by: { $0.key < $1.key }) {
                #expect(after[column] == values, "\(column) on \(world.engine)")
            }
        }
        // PostgreSQL keeps a reading's numbers beside its JSON (written by hmon since its schema 15): the copy
        // derives them, so the screens' sums and weights read the same on both.
        func numbers(postgres: Bool) -> String {
            """
            SELECT \(Self.hex("mid", postgres: postgres)) || '|' || coalesce(CAST(CAST(round(weight * 1000) AS BIGINT) AS TEXT), '-') || '|' ||
                   coalesce(CAST(CAST(round(calories * 1000) AS BIGINT) AS TEXT), '-') FROM messages
            """
        }
        let expected = try await original.strings(numbers(postgres: false)).sorted()
        #expect(expected.contains { $0.hasSuffix("|70000|-") } && expected.contains { $0.hasSuffix("|-|650500") })
        #expect(try await postgres.strings(numbers(postgres: true)).sorted() == expected)

        // The copy works, not just its rows: alice signs in with her password on PostgreSQL and sees her readings.
        let service = LocalHealthService(store: postgres.store)
        _ = try await service.signIn(name: "alice", password: "secret-pw")
        let scale = try #require(try await service.devices().first { $0.name == "Bathroom scale" })
        #expect(try await service.lastMessages(device: scale.id, count: 1, field: nil).first?.data["weight"] == .number(71.1))
    }

    @Test func aTargetWithAccountsIsRefusedUnlessReplacing() async throws {
        let source = try await StoreWorld(.sqlite)
        try await Self.fill(source)
        let target = try await StoreWorld(.postgres)
        _ = try await target.user("carol")
        let refused = await #expect(throws: HealthError.self) { try await StoreCopy.copy(from: source.store, to: target.store) }
        #expect(refused?.message.contains("is not empty (1 accounts, 0 readings)") == true)
        #expect(refused?.message.contains("--force") == true)
        #expect(try await target.store.users().map(\.name) == ["carol"], "nothing was written")
        try await StoreCopy.copy(from: source.store, to: target.store, replacing: true)
        #expect(try await target.store.users().map(\.name).sorted() == ["alice", "bob"])
    }
}

/// `hmon db copy` is a way in like any other (issue 29, case 1): a reading outside the reading rules —
/// planted around them, as an older hmon or a hand edit could leave it — is named, with how to mend it,
/// and nothing is copied.
@Suite struct StoreCopyRefusesReadingsOutsideTheRulesTests {
    @Test(arguments: [#"{"steps": 1e300}"#, #"{"restingHeartRate": -5}"#, #"{"comments": "nul\u0000here"}"#])
    func aReadingOutsideTheRulesIsNamedAndNothingIsCopied(_ json: String) async throws {
        let source = try await StoreWorld(.sqlite)
        let (user, service) = try await source.user("alice")
        let tracker = try await source.device(.activityTracker, named: "Watch", for: service)
        try await service.post(NewMessage(sdid: tracker.id, ts: date("2026-11-01 07:00").millisecondsSince1970,
                                          data: ["steps": .number(4000)]))
        let sqlite = try #require(source.store as? LocalStore)
        try await sqlite.write { db in
            try db.execute(sql: """
                INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data) VALUES ('planted', ?, ?, ?, 1, 1, 1, ?)
                """, arguments: [StoredID(tracker.id), StoredID(tracker.dtid), StoredID(user.id), json])
        }
        let target = try await StoreWorld(.sqlite)
        do {
            try await StoreCopy.copy(from: source.store, to: target.store)
            Issue.record("copied a reading holding \(json)")
        } catch HealthError.invalidValue(let message) {
            #expect(message.hasPrefix("the reading planted in \(source.store.location) holds "), "\(message)")
            #expect(message.contains("hmon reading delete planted") && message.hasSuffix("nothing was copied"), "\(message)")
        }
        #expect(try await target.store.users().isEmpty, "the target was touched")
    }
}
