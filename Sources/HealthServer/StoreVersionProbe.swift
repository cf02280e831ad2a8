import HealthCore
import Synchronization

/// The store's change token (SQLite's `data_version`, PostgreSQL's change counter), read at most once per `interval`.
///
/// The token cache asks for it on every request. Reading it is cheap but goes through one dedicated,
/// serialized connection; at thousands of requests a second the event loops queued on it. A 50 ms
/// window keeps a token revoked by another process usable for at most that long.
final class StoreVersionProbe: Sendable {
    private let store: any HealthStore
    private let interval: Duration
    private let last = Mutex<(version: Int64, readAt: ContinuousClock.Instant)?>(nil)

    init(store: any HealthStore, interval: Duration = .milliseconds(50)) {
        self.store = store
        self.interval = interval
    }

    func current() async throws -> Int64 {
        let now = ContinuousClock.now
        if let cached = last.withLock({ $0 }), now - cached.readAt < interval, now >= cached.readAt {
            return cached.version
        }
        let version = try await store.changeToken()
        last.withLock { $0 = (version, now) }
        return version
    }
}
