import Foundation
import HealthCore
import HealthModel

/// Access tokens recently checked against the store, so a client polling the API does not cost a
/// database read per request for its token. An entry lives `lifetime` seconds (and never past the
/// token's expiry), and only while the store is unchanged: each entry keeps the store's change token
/// (SQLite's `data_version`, read at most every 50 ms by `StoreVersionProbe`), so any commit — a token
/// revoked or a password changed by another hmon process included — sends requests back to the store
/// within 50 ms. Revoking or signing out through this server forgets the entry at once.
///
/// `@unchecked Sendable`: the dictionary is only touched under `lock`; a lock keeps the hit path free of
/// actor hops on every request.
final class TokenCache: @unchecked Sendable {
    struct Entry {
        var record: TokenRecord
        var checkedAt: Date
        /// The store's change token when the record was read.
        var storeVersion: Int64
    }

    let lifetime: TimeInterval
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Plenty for the clients of one store; past it the cache starts over rather than grow.
    private let capacity = 10_000

    init(lifetime: TimeInterval) { self.lifetime = lifetime }

    /// The cached record for a token hash, if it was checked less than `lifetime` ago, in a store still at
    /// `storeVersion`, and has not expired.
    func record(forHash hash: String, now: Date, storeVersion: Int64) -> TokenRecord? {
        lock.withLock {
            guard let entry = entries[hash] else { return nil }
            let fresh = now.timeIntervalSince(entry.checkedAt) < lifetime && now >= entry.checkedAt
                && entry.storeVersion == storeVersion
            let live = entry.record.expiresAt.map { now < $0 } ?? true
            guard fresh, live else {
                entries[hash] = nil
                return nil
            }
            return entry.record
        }
    }

    func remember(_ record: TokenRecord, forHash hash: String, now: Date, storeVersion: Int64) {
        guard lifetime > 0 else { return }
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[hash] = Entry(record: record, checkedAt: now, storeVersion: storeVersion)
        }
    }

    /// Forgets every entry: after a replayed code revoked a family whose tokens are not known here.
    func forgetAll() {
        lock.withLock { entries.removeAll(keepingCapacity: true) }
    }

    func forget(token: String) {
        let hash = Secrets.sha256Hex(token)
        _ = lock.withLock { entries.removeValue(forKey: hash) }
    }
}
