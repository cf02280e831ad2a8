import HealthCore
import HealthModel
/// How much memory a `LocalStore` may keep for speed: connections that read at once, and SQLite's page
/// cache per connection.
///
/// A server reads for many requests at once and keeps pages warm; the dashboard, open all day in a
/// terminal, reads a screen at a time (at most two queries together) from pages the operating system
/// caches anyway. SQLite's default cache (2 MB per connection, one connection per concurrent read) was
/// most of the dashboard's own memory.
public struct StoreFootprint: Sendable, Equatable {
    /// Connections that may read at the same time (GRDB's pool readers).
    public var readers: Int
    /// SQLite's page cache per connection, in KiB (`PRAGMA cache_size = -N`).
    public var cacheKiB: Int

    public init(readers: Int, cacheKiB: Int) {
        self.readers = readers
        self.cacheKiB = cacheKiB
    }

    /// GRDB's and SQLite's defaults: five readers, 2 MB of cache each. The server and the command line.
    public static let standard = StoreFootprint(readers: 5, cacheKiB: 2000)
    /// The dashboard: two readers (a screen's table and trend), 512 KiB of cache each.
    public static let interactive = StoreFootprint(readers: 2, cacheKiB: 512)
}

