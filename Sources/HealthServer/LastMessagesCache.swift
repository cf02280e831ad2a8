import NIOCore

/// `messages/last` answers already written, so a dashboard polling an unchanged store costs a dictionary
/// look-up instead of a pooled read (a hop to GRDB's reader queue and back, measured as two thirds of the
/// route's time under wrk) and the JSON writing.
///
/// Kept by `TokenKeyedCache`'s rule, with the store's change token as `StoreVersionProbe` reads it (read
/// before the readings are): any commit, from this server or another process, makes an answer stale, so an
/// answer is never older than the token window the server already allows a revoked token (50 ms), and a
/// write through this server shows at the next request. Only answers are kept; errors (an unknown device,
/// another user's) are never cached.
final class LastMessagesCache: Sendable {
    struct Key: Hashable, Sendable {
        var userID: String
        var sdids: String
        var count: Int
        var field: String?
    }

    /// Plenty for the dashboards of one store (one entry per user, device list and count); past it the
    /// cache starts over rather than grow. At most 100 readings an answer keeps an entry under ~30 KB.
    private let cache: TokenKeyedCache<Key, ByteBuffer>

    init(capacity: Int = 512) { cache = TokenKeyedCache(capacity: capacity) }

    /// The answer kept for `key`, if it was written while the store was at `storeVersion`.
    func body(for key: Key, storeVersion: Int64) -> ByteBuffer? {
        cache.kept(for: key, token: storeVersion)
    }

    func remember(_ body: ByteBuffer, for key: Key, storeVersion: Int64) {
        cache.keep(body, for: key, token: storeVersion)
    }
}
