import PostgresNIO
import HealthCore

extension PostgresStore {
    /// `VACUUM (ANALYZE)` of tables just filled in bulk (`hmon db copy`). A bulk load leaves the planner no
    /// statistics and the tables no visibility map, so until autovacuum comes by (a minute or more later, on
    /// its own schedule) every index-only scan also reads the table: the day sums' check of a 365-day
    /// insights view took 237 ms instead of 6, and 100 remote dashboards waited 2.5 s (p50) instead of 52 ms.
    /// Upkeep only: the copy is committed already, so a failure here (a role that does not own the tables)
    /// leaves it to autovacuum and changes nothing else.
    func upkeepAfterBulkLoad(of tables: [String]) async {
        _ = try? await read { db in
            for table in tables { try await db.run(PostgresQuery(unsafeSQL: "VACUUM (ANALYZE) \(StoreCopy.quoted(table))")) }
        }
    }
}
