import Foundation
import ModelTestSupport
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// A table longer than a page is copied whole, paged by each engine's key: SQLite's rowid, PostgreSQL's
/// serial `seq` (readings) and a text primary key compared byte by byte (tokens).
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct StoreCopyPagingTests {
    @Test func tablesLongerThanAPageArriveWholeOnPostgreSQLAndBack() async throws {
        let original = try await StoreWorld(.sqlite)
        let (_, service) = try await original.user("alice")
        let watch = try await original.device(.activityTracker, named: "Watch", for: service)
        try await service.post(NewMessage(sdid: watch.id, ts: date("2026-11-01 07:00").millisecondsSince1970, data: ["steps": .number(4000)]))
        let rows = StoreCopy.pageSize * 2 + 7
        try await original.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data, weight)
            SELECT randomblob(16), sdid, sdtid, uid, ts + i, cts + i, mv, data, i / 8.0 FROM messages, n WHERE messages.rowid = 1;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO tokens (hash, user_id, kind, created_at) SELECT 'Token-' || i, (SELECT id FROM users), 'access', i FROM n;
            """)
        let postgres = try await StoreWorld(.postgres)
        let back = try await StoreWorld(.sqlite)
        let copied = try await StoreCopy.copy(from: original.store, to: postgres.store)
        #expect(copied["messages"] == rows + 1 && copied["tokens"] == rows)
        try await StoreCopy.copy(from: postgres.store, to: back.store)
        let sums = "SELECT count(*) || ' ' || sum(ts) || ' ' || CAST(sum(weight) * 8 AS BIGINT) || ' ' || (SELECT count(DISTINCT hash) FROM tokens) FROM messages"
        let expected = try await original.strings(sums)
        #expect(try await postgres.strings(sums) == expected)
        #expect(try await back.strings(sums) == expected)
    }
}
