import Synchronization

/// Counts the server's open connections against the cap (`ConnectionLimits.maxConnections`). Shared by
/// every event loop, hence an atomic.
final class OpenConnections: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    var current: Int { count.load(ordering: .relaxed) }

    /// Takes a place for a new connection; false when the cap is reached (nothing is taken then).
    func admit() -> Bool {
        let before = count.add(1, ordering: .relaxed).oldValue
        if before >= limit {
            count.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Gives back the place of a connection that `admit` let in, once it has closed.
    func release() {
        count.subtract(1, ordering: .relaxed)
    }
}
