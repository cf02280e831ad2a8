import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel
@testable import PostgresStorage

/// PostgreSQL announces a write from where its rows change (schema version 30's triggers), not from hmon's
/// write paths: what an open `news()` listener hears of writes hmon did not make, and which kinds it is told.
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct PostgresAnnouncementTests {
    private func open(_ url: String) async throws -> PostgresStore {
        try await PostgresStore.open(try PostgresLocation(url), access: .create, passwordHasher: .fastForTests, maximumConnections: 2)
    }

    @Test func aReadingInsertedThroughPsqlReachesAnOpenListenerWithItsUserAndKinds() async throws {
        let url = try await TestPostgres.newDatabase()
        let store = try await open(url)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        _ = try await store.createUser(NewAccount(name: "bob", password: "secret-pw"))
        let scale = try await store.addDevice(name: "Scale", typeID: BuiltInDeviceType.scale.deviceType.id, userID: alice.id, at: Date())
        let news = Heard(store.news())
        let listening = try #require(await news.listeningToken(), "the listener never started: \(news.all)")

        // No hmon code path: the row as psql writes it, ids made by the schema's own function.
        _ = try await TestPostgres.query(url, """
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data)
            SELECT hmon_binary_id(md5('psql')), d.key, hmon_binary_id(d.dtid), u.key, 86400000, 86400000, 1, '{"weight":71.5}'
            FROM devices AS d JOIN users AS u ON u.id = d.uid WHERE d.id = '\(scale.id)'
            """)

        let heard = try #require(await news.firstAnnouncement(), "nothing was announced: \(news.all)")
        #expect(heard.userID == alice.id, "\(heard)")
        #expect(heard.kinds == [.weights], "\(heard)")
        #expect(!heard.credentials)
        // psql did not move the change token: the trigger that announced the write did, so a server that
        // compares tokens does not take it for a write it already told.
        #expect(heard.token > listening)
        #expect(try await store.changeToken() == heard.token)
    }

    @Test func aSleepOnlyReadingAnnouncesWhatTheKindsTableSaysForSleep() async throws {
        let url = try await TestPostgres.newDatabase()
        let store = try await open(url)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let ring = try await store.addDevice(name: "Ring", typeID: BuiltInDeviceType.activityTracker.deviceType.id,
                                             userID: alice.id, at: Date())
        let news = Heard(store.news())
        _ = try #require(await news.listeningToken(), "the listener never started: \(news.all)")

        _ = try await store.post(NewMessage(sdid: ring.id, ts: 86_400_000, data: [Field.sleepMinutes: .number(425)]), userID: alice.id)

        let heard = try #require(await news.firstAnnouncement(), "nothing was announced: \(news.all)")
        #expect(heard.userID == alice.id, "\(heard)")
        // The sleep kind's own changes (HRV's screen shows the night), not only its device type's screen.
        #expect(heard.kinds == ReadingKind.sleep.changes, "\(heard)")
        #expect(heard.kinds != [.energy], "\(heard)")
        #expect(heard.kinds?.contains(.hrv) == true, "\(heard)")
    }

    @Test func aTokenDeletedThroughPsqlIsAnnouncedAsRevoked() async throws {
        let url = try await TestPostgres.newDatabase()
        let store = try await open(url)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        _ = try await store.createToken(kind: .access, userID: alice.id, ttl: 3600)
        let news = Heard(store.news())
        _ = try #require(await news.listeningToken(), "the listener never started: \(news.all)")

        _ = try await TestPostgres.query(url, "DELETE FROM tokens WHERE user_id = '\(alice.id)'")

        let heard = try #require(await news.firstAnnouncement(), "nothing was announced: \(news.all)")
        #expect(heard.credentials, "\(heard)")
        #expect(heard.userID == nil, "a revocation changes nobody's data: \(heard)")
    }

    @Test func theDatabasesFieldKindsAreSwiftsKindsTableAgainEachTimeTheStoreOpens() async throws {
        let url = try await TestPostgres.newDatabase()
        _ = try await open(url)
        #expect(try await fieldKinds(url) == ChangeKind.byField)
        // An older hmon's table, or one edited by hand: the next open puts this hmon's back.
        _ = try await TestPostgres.query(url, """
            UPDATE field_change_kinds SET kinds = '{energy}' WHERE field = '\(Field.sleepMinutes)';
            INSERT INTO field_change_kinds (field, kinds) VALUES ('noSuchField', '{weights}')
            """)
        #expect(try await fieldKinds(url) != ChangeKind.byField)
        _ = try await open(url)
        #expect(try await fieldKinds(url) == ChangeKind.byField)
    }

    /// `field_change_kinds` as psql reads it.
    private func fieldKinds(_ url: String) async throws -> [String: Set<ChangeKind>] {
        let text = try await TestPostgres.query(url, "SELECT field || '=' || array_to_string(kinds, ',') FROM field_change_kinds")
        var table: [String: Set<ChangeKind>] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let kinds = parts.count > 1 ? parts[1].split(separator: ",").compactMap { ChangeKind(rawValue: String($0)) } : []
            table[String(parts[0])] = Set(kinds)
        }
        return table
    }
}

/// What a `news()` stream said, collected as it comes.
private final class Heard: Sendable {
    private final class Box: Sendable {
        let items = Mutex([StoreNews]())
    }

    private let box: Box
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<StoreNews>) {
        let box = Box()
        self.box = box
        task = Task { for await item in stream { box.items.withLock { $0.append(item) } } }
    }

    deinit { task.cancel() }

    var all: [StoreNews] { box.items.withLock { $0 } }

    /// The change token when listening began; nil if it never did.
    func listeningToken() async -> Int64? {
        await Waiting.firstValue {
            all.lazy.compactMap { if case .listening(let token) = $0 { token } else { nil } }.first
        }
    }

    /// The first announcement heard; nil if none came.
    func firstAnnouncement() async -> StoreAnnouncement? {
        await Waiting.firstValue {
            all.lazy.compactMap { if case .announced(let announcement) = $0 { announcement } else { nil } }.first
        }
    }
}
