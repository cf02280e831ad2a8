import Logging
import Synchronization

/// Logs a database outage as one episode, not once per request: a line when the first request is answered
/// 503 because the database cannot be reached, and one when requests are answered again, saying how long it
/// lasted and how many were refused meanwhile. A server taking hundreds of requests a second would otherwise
/// write hundreds of lines a second for as long as the database is down.
///
/// An answer that did not need the store (a 404, a sign-in page) may come in the middle of an outage: only
/// one that comes after `quiet` without a refusal ends the episode, and a new episode is logged at most once
/// per `quiet`, so the lines stay bounded whatever the mix of requests.
final class DatabaseOutageLog: Sendable {
    private struct State {
        /// The episode under way: since when, how many requests were refused, and the last refusal.
        var since: ContinuousClock.Instant?
        var refused = 0
        var lastRefusal: ContinuousClock.Instant?
        var lastLogged: ContinuousClock.Instant?
    }

    private let logger: Logger
    private let quiet: Duration
    private let state = Mutex(State())

    init(logger: Logger, quiet: Duration = .seconds(1)) {
        self.logger = logger
        self.quiet = quiet
    }

    /// A request answered 503 because the database cannot be reached (`message` names the database, never
    /// its password).
    func refused(_ message: String) {
        let now = ContinuousClock.now
        let log = state.withLock { state -> Bool in
            state.refused += 1
            state.lastRefusal = now
            guard state.since == nil else { return false }
            state.since = now
            if let last = state.lastLogged, now - last < quiet { return false }
            state.lastLogged = now
            return true
        }
        if log { logger.error("the database cannot be reached, answering 503 with Retry-After until it is back: \(message)") }
    }

    /// A request answered without a server error: ends the episode when the refusals have stopped.
    func answered() {
        let now = ContinuousClock.now
        let ended = state.withLock { state -> (Duration, Int)? in
            guard let since = state.since, let last = state.lastRefusal, now - last >= quiet else { return nil }
            defer {
                state.since = nil
                state.refused = 0
            }
            return (last - since, state.refused)
        }
        guard let (lasted, refused) = ended else { return }
        let seconds = Double(lasted.components.seconds) + Double(lasted.components.attoseconds) / 1e18
        logger.notice("the database is reachable again: \(refused) request(s) were answered 503 over \(Int(seconds.rounded(.up))) s")
    }

    /// Whether an episode is under way (a cheap look for the answers that end none).
    var isOpen: Bool { state.withLock { $0.since != nil } }
}
