import Foundation
import HealthServer

/// Deadlines for the servers tests start, which a starved machine cannot trip.
///
/// `hmon serve`'s own (`ConnectionLimits.default`: 5 s for a request's head, 10 s for its body) are for an
/// attacker's slow connection. A server in the test process shares a task pool of one thread per core with
/// every other test, and under a parallel run on a busy two-core machine it was once starved for minutes:
/// with production deadlines it then closed its own test's connection as it would a slow attacker's
/// ("Connection reset by peer"). These are longer than any test waits (`Waiting.patience`, the raw client's
/// 300 s), so a hung server still fails its test by that test's own wait. The tests about deadlines set
/// their own.
public enum TestServerLimits {
    /// Seconds for each part of an exchange (head, body, idle, write).
    public static let seconds: TimeInterval = 900

    /// Between the change feed's heartbeats: a client calls its feed dead after two and a half heartbeats of
    /// silence, which at `hmon serve`'s 15 s a starved test server could stay silent for. The tests about
    /// heartbeats set their own.
    public static let feedHeartbeat: Duration = .seconds(300)

    /// Seconds a test's client (`RemoteHealthService`) waits for its server's answer: as long as the raw
    /// client's, for the same starved server. The tests about a client's timeout set their own.
    public static let clientTimeout: TimeInterval = 300

    /// `hmon serve`'s options for the same, for the tests that start it as a child.
    public static let serveOptions: [String] = [
        "--header-timeout", "900", "--body-timeout", "900", "--idle-timeout", "900", "--write-timeout", "900",
        "--feed-heartbeat", "300",
    ]
}

extension ConnectionLimits {
    /// `hmon serve`'s caps on connections, with `TestServerLimits.seconds` for every deadline.
    public static let forTests = ConnectionLimits(headerTimeout: TestServerLimits.seconds, bodyTimeout: TestServerLimits.seconds,
                                                  idleTimeout: TestServerLimits.seconds, writeTimeout: TestServerLimits.seconds)
}

extension ServerConfiguration {
    /// A server for a test: loopback, a free port, no rate limit unless given, `ConnectionLimits.forTests`
    /// and `TestServerLimits.feedHeartbeat`.
    public static func forTests(host: String = "127.0.0.1", port: Int = 0, rateLimit: RateLimit? = nil,
                                accessTokenLifetime: TimeInterval = 3600, limits: ConnectionLimits = .forTests,
                                clock: @escaping @Sendable () -> Date = Date.init) -> ServerConfiguration {
        var configuration = ServerConfiguration(host: host, port: port, rateLimit: rateLimit, accessTokenLifetime: accessTokenLifetime,
                                                limits: limits, clock: clock)
        configuration.feedHeartbeat = TestServerLimits.feedHeartbeat
        return configuration
    }
}
