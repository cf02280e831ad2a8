import HealthCore
import HealthModel
import Synchronization

/// The store's change token (SQLite's `data_version`, PostgreSQL's change counter), read at most once per `interval`.
///
/// The token cache and the `messages/last` cache ask for it on every request. Reading it is cheap but goes
/// through one dedicated, serialized connection; at thousands of requests a second the event loops queued
/// on it. A 50 ms window keeps a token revoked, or a reading written, by another process in use for at most
/// that long. A write through this server calls `forget()` before it answers, so the next request reads
/// the token again and sees the write at once.
final class StoreVersionProbe: Sendable {
    private struct State {
        var version: Int64?
        var readAt: ContinuousClock.Instant
        /// Counts `forget()`s: a read that was under way when one came must not put back its older version.
        var generation: UInt64
    }

    private let store: any StoreIdentity
    private let interval: Duration
    private let state = Mutex(State(version: nil, readAt: .now, generation: 0))

    init(store: any StoreIdentity, interval: Duration = .milliseconds(50)) {
        self.store = store
        self.interval = interval
    }

    func current() async throws -> Int64 {
        let now = ContinuousClock.now
        let (cached, generation) = state.withLock { state -> (Int64?, UInt64) in
            guard let version = state.version, now - state.readAt < interval, now >= state.readAt else { return (nil, state.generation) }
            return (version, state.generation)
        }
        if let cached { return cached }
        let version = try await store.changeToken()
        state.withLock { state in
            if state.generation == generation {
                state.version = version
                state.readAt = now
            }
        }
        return version
    }

    /// After a write through this server: the next `current()` reads the store again.
    func forget() {
        state.withLock { state in
            state.version = nil
            state.generation &+= 1
        }
    }
}
