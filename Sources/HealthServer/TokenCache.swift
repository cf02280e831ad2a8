import Foundation
import HealthCore

/// Access tokens recently checked against the store, so a client polling the API does not cost a
/// database read per request for its token. An entry lives `lifetime` seconds (and never past the
/// token's expiry); revoking or signing out through this server forgets it at once. A token revoked by
/// another process stays usable here for at most `lifetime` seconds.
///
/// `@unchecked Sendable`: the dictionary is only touched under `lock`; a lock keeps the hit path free of
/// actor hops on every request.
final class TokenCache: @unchecked Sendable {
    struct Entry {
        var record: TokenRecord
        var checkedAt: Date
    }

    let lifetime: TimeInterval
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Plenty for the clients of one store; past it the cache starts over rather than grow.
    private let capacity = 10_000

    init(lifetime: TimeInterval) { self.lifetime = lifetime }

    /// The cached record for a token hash, if it was checked less than `lifetime` ago and has not expired.
    func record(forHash hash: String, now: Date) -> TokenRecord? {
        lock.withLock {
            guard let entry = entries[hash] else { return nil }
            let fresh = now.timeIntervalSince(entry.checkedAt) < lifetime && now >= entry.checkedAt
            let live = entry.record.expiresAt.map { now < $0 } ?? true
            guard fresh, live else {
                entries[hash] = nil
                return nil
            }
            return entry.record
        }
    }

    func remember(_ record: TokenRecord, forHash hash: String, now: Date) {
        guard lifetime > 0 else { return }
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[hash] = Entry(record: record, checkedAt: now)
        }
    }

    func forget(token: String) {
        let hash = Secrets.sha256Hex(token)
        _ = lock.withLock { entries.removeValue(forKey: hash) }
    }
}
