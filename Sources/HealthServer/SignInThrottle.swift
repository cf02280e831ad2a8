import Foundation
import HealthCore
import HealthModel
import Synchronization
import CheckedNumbers

/// Failed sign-ins counted per account (or per client id at `/token`), whatever address they come from:
/// after a few failures each new attempt must wait, the wait doubling with each failure — so a guesser
/// spread over many addresses gets a handful of tries an hour instead of scrypt's nine a second. The
/// per-address rate limit (`RateLimitMiddleware`) stays beside it.
///
/// Unknown names are counted like real ones, so being throttled reveals nothing about which names exist.
/// A success forgets the account's failures.
final class SignInThrottle: Sendable {
    struct Policy: Sendable {
        /// Failures allowed before the first wait.
        var freeFailures = 5
        /// The first wait; each further failure doubles it.
        var firstDelay: TimeInterval = 1
        var maxDelay: TimeInterval = 15 * 60
        /// Failures older than this are forgotten.
        var forgetAfter: TimeInterval = 24 * 3600
        /// Accounts tracked at most; past it, the oldest harmless entries are dropped first.
        var capacity = 100_000
    }

    private struct Entry {
        var failures = 0
        /// Attempts under way (checked, not answered yet): they count against the free failures, so
        /// parallel guesses cannot all slip through before the first one fails.
        var pending = 0
        var blockedUntil = Date.distantPast
        var lastFailure = Date.distantPast
    }

    let policy: Policy
    private let entries = Mutex<[String: Entry]>([:])

    init(policy: Policy = Policy()) { self.policy = policy }

    /// The key for an account name: the store's own key (`UserNames.key`: NFKC and case folding), so every
    /// spelling that signs in as one account shares its budget: `ALICE`, `ａｌｉｃｅ`, and `roß` for `ross`
    /// (lowercasing alone kept ß, and each "ss" written as ß doubled the guesses).
    static func key(account name: String) -> String {
        "user:" + UserNames.key(name.trimmingCharacters(in: .whitespaces))
    }

    /// Either a go-ahead (call `finish` with the outcome afterwards) or the seconds to wait.
    enum Verdict: Equatable {
        case proceed
        case wait(seconds: Int)
    }

    func begin(_ key: String, now: Date) -> Verdict {
        entries.withLock { entries in
            var entry = entries[key] ?? Entry()
            if now.timeIntervalSince(entry.lastFailure) > policy.forgetAfter, entry.pending == 0 { entry = Entry() }
            if now < entry.blockedUntil {
                return .wait(seconds: Int(rounding: entry.blockedUntil.timeIntervalSince(now), .up))
            }
            // Without failures, attempts run side by side (a client refreshing from several places); after
            // one, only up to the free failures may be under way; past them, one at a time.
            guard entry.failures == 0 || entry.failures + entry.pending < policy.freeFailures || entry.pending == 0 else {
                return .wait(seconds: 1)
            }
            entry.pending += 1
            if entries[key] == nil, entries.count >= policy.capacity { Self.sweep(&entries, now: now, policy: policy) }
            entries[key] = entry
            return .proceed
        }
    }

    /// Whether `key` has failures on record (checked before `begin` counts the attempt under way).
    func hasFailures(_ key: String) -> Bool {
        entries.withLock { ($0[key]?.failures ?? 0) > 0 }
    }

    /// Records the outcome of an attempt `begin` let through: true or false, or nil when the password was
    /// never checked (the pool was full, the store failed), which counts as neither.
    func finish(_ key: String, succeeded: Bool?, now: Date) {
        entries.withLock { entries in
            guard var entry = entries[key] else { return }
            entry.pending = max(0, entry.pending - 1)
            if succeeded == nil {
                // Only the attempt under way is released.
            } else if succeeded == true {
                entry.failures = 0
                entry.blockedUntil = .distantPast
            } else {
                entry.failures += 1
                entry.lastFailure = now
                if entry.failures >= policy.freeFailures {
                    let doublings = Double(min(entry.failures - policy.freeFailures, 30))
                    let delay = min(policy.maxDelay, policy.firstDelay * pow(2, doublings))
                    entry.blockedUntil = max(entry.blockedUntil, now.addingTimeInterval(delay))
                }
            }
            if entry.failures == 0, entry.pending == 0 {
                entries[key] = nil
            } else {
                entries[key] = entry
            }
        }
    }

    /// Drops forgotten entries, then, if still full, those not blocking anyone now.
    private static func sweep(_ entries: inout [String: Entry], now: Date, policy: Policy) {
        entries = entries.filter { $0.value.pending > 0 || now.timeIntervalSince($0.value.lastFailure) <= policy.forgetAfter }
        if entries.count >= policy.capacity {
            entries = entries.filter { $0.value.pending > 0 || now < $0.value.blockedUntil }
        }
    }
}
