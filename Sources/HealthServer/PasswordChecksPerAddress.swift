import Foundation
import Synchronization

/// Password checks under way per client address: at most `limit` at once. One address sending guesses in
/// parallel cannot fill the password pool's queue (`PasswordCheckPool`) and make everyone else's sign-in
/// wait behind its guesses; its extra attempts are answered 429 at once, without a check. It also
/// remembers which addresses failed a sign-in lately: their checks wait in the pool's second line.
final class PasswordChecksPerAddress: Sendable {
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])
    private let lastFailure = Mutex<[String: Date]>([:])
    /// How long a failure makes an address's checks wait in the second line.
    static let suspicion: TimeInterval = 15 * 60
    /// Addresses remembered at most; past it, the oldest failures are forgotten first.
    static let capacity = 100_000

    init(limit: Int = 2) { self.limit = max(1, limit) }

    func noteFailure(_ address: String, now: Date) {
        lastFailure.withLock { failures in
            if failures[address] == nil, failures.count >= Self.capacity {
                failures = failures.filter { now.timeIntervalSince($0.value) < Self.suspicion }
                if failures.count >= Self.capacity { failures.removeAll(keepingCapacity: true) }
            }
            failures[address] = now
        }
    }

    /// Whether `address` failed a sign-in within the last `suspicion` seconds.
    func failedLately(_ address: String, now: Date) -> Bool {
        lastFailure.withLock { failures in
            guard let last = failures[address] else { return false }
            return now.timeIntervalSince(last) < Self.suspicion && now >= last
        }
    }

    /// Takes a place for a check from `address`; false when it already has `limit` under way.
    func enter(_ address: String) -> Bool {
        counts.withLock { counts in
            let current = counts[address, default: 0]
            guard current < limit else { return false }
            counts[address] = current + 1
            return true
        }
    }

    /// Gives back the place `enter` took.
    func leave(_ address: String) {
        counts.withLock { counts in
            let remaining = counts[address, default: 1] - 1
            counts[address] = remaining > 0 ? remaining : nil
        }
    }
}
