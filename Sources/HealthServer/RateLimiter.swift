import Foundation

/// Requests allowed per minute and per day, as `--rate-limit 100/1000` writes them.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var perMinute: Int
    public var perDay: Int

    public init(perMinute: Int, perDay: Int) {
        self.perMinute = perMinute
        self.perDay = perDay
    }

    /// Parses "100/1000"; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let minute = Int(parts[0]), let day = Int(parts[1]), minute > 0, day >= minute else { return nil }
        self.init(perMinute: minute, perDay: day)
    }

    public var description: String { "\(perMinute)/\(perDay)" }

    /// The contract's example: 100 a minute, 1000 a day.
    public static let contract = RateLimit(perMinute: 100, perDay: 1000)
}

/// Counts requests per key (a token's hash, or an IP address) in fixed windows: the current UTC minute and
/// the current UTC day. Fixed windows make `X-Rate-Limit-Reset` exact: the end of each window.
///
/// `@unchecked Sendable`: all mutable state is behind `lock`; a lock (not an actor) keeps the check off the
/// async hop path of every request.
final class RateLimiter: @unchecked Sendable {
    struct Verdict: Equatable {
        var allowed: Bool
        var limit: RateLimit
        var remainingMinute: Int
        var remainingDay: Int
        var minuteResetsAt: Int64
        var dayResetsAt: Int64

        /// `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining`, `X-Rate-Limit-Reset`, each "<minute>/<day>".
        var headers: [(String, String)] {
            [("X-Rate-Limit-Limit", limit.description),
             ("X-Rate-Limit-Remaining", "\(remainingMinute)/\(remainingDay)"),
             ("X-Rate-Limit-Reset", "\(minuteResetsAt)/\(dayResetsAt)")]
        }

        /// Seconds until a refused request may be sent again: to the end of the window that is used up
        /// (the day's, when both are). Sent as `Retry-After` with a 429.
        func retryAfter(now: Int64) -> Int64 {
            max(1, (remainingDay == 0 ? dayResetsAt : minuteResetsAt) - now)
        }
    }

    private struct Counter {
        var minute: Int64
        var minuteCount: Int
        var day: Int64
        var dayCount: Int
    }

    let limit: RateLimit
    private let lock = NSLock()
    private var counters: [String: Counter] = [:]
    private var lastSweepDay: Int64 = 0

    init(limit: RateLimit) { self.limit = limit }

    /// Counts one request for `key` at `now` (seconds since the epoch) and says whether it may proceed.
    /// A refused request does not use up the allowance.
    func check(_ key: String, now: Int64) -> Verdict {
        let minute = now / 60
        let day = now / 86_400
        return lock.withLock {
            if day != lastSweepDay {
                counters = counters.filter { $0.value.day == day }
                lastSweepDay = day
            }
            var counter = counters[key] ?? Counter(minute: minute, minuteCount: 0, day: day, dayCount: 0)
            if counter.minute != minute { counter.minute = minute; counter.minuteCount = 0 }
            if counter.day != day { counter.day = day; counter.dayCount = 0 }
            let allowed = counter.minuteCount < limit.perMinute && counter.dayCount < limit.perDay
            if allowed {
                counter.minuteCount += 1
                counter.dayCount += 1
            }
            counters[key] = counter
            return Verdict(allowed: allowed, limit: limit,
                           remainingMinute: max(0, limit.perMinute - counter.minuteCount),
                           remainingDay: max(0, limit.perDay - counter.dayCount),
                           minuteResetsAt: (minute + 1) * 60, dayResetsAt: (day + 1) * 86_400)
        }
    }
}
