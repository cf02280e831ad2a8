import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The store's connection pool, kept answering through a database outage.
///
/// postgres-nio's pool puts no bound on how long a lease waits. With the database stopped under a running
/// server, a request waited for its connection until the pool's circuit breaker tripped (a minute), the
/// following ones were refused at once, and once the database was back the pool tried again only when its
/// backoff (growing to a minute) said so: 500s went on for seconds after the database returned. Around it:
/// - a lease still waiting after `Timing.leasePatience` connects to the database directly, once (a probe,
///   `Timing.probeTimeout`). If that fails too, the database is unreachable: the lease is given up and its
///   request told so (`Unreachable`). If it connects, the pool is only busy, and the lease waits on as before;
/// - a connection that broke under a query, or a pool that refused a lease, is probed the same way;
/// - while the database is known unreachable every lease is refused at once, and one prober connects every
///   `Timing.probeInterval`. Once it connects, a fresh pool replaces the old one (whose backoff may be a
///   minute long), so requests go through again within that interval of the database's return.
final class ReconnectingPool: Sendable {
    struct Timing: Sendable {
        /// How long a lease waits before the database is probed: longer than a busy pool usually takes.
        var leasePatience: Duration = .seconds(2)
        /// How long a probe's connection may take before the database counts as unreachable.
        var probeTimeout: Duration = .seconds(2)
        /// Between two probes while the database is unreachable.
        var probeInterval: Duration = .milliseconds(250)
    }

    /// The database could not be reached: `reason` in words (never with the password).
    struct Unreachable: Error {
        let reason: String
    }

    private struct Pool {
        let client: PostgresClient
        let running: Task<Void, Never>
    }

    private struct State {
        var pool: Pool
        /// While the database is known unreachable: why, and the task probing for its return.
        var outage: (reason: String, prober: Task<Void, Never>)?
        /// The probe under way, which callers join.
        var probing: Task<String?, Never>?
        var closed = false
    }

    private let makeClient: @Sendable () -> PostgresClient
    private let probeConfiguration: PostgresConnection.Configuration
    private let timing: Timing
    private let logger: Logger
    private let state: Mutex<State>

    /// A pool of clients `makeClient` makes (each run here); probes connect with `probeConfiguration`.
    init(makeClient: @escaping @Sendable () -> PostgresClient, probeConfiguration: PostgresConnection.Configuration,
         timing: Timing = Timing(), logger: Logger) {
        self.makeClient = makeClient
        var probeConfiguration = probeConfiguration
        probeConfiguration.options.connectTimeout = .nanoseconds(timing.probeTimeout.wholeNanoseconds)
        self.probeConfiguration = probeConfiguration
        self.timing = timing
        self.logger = logger
        state = Mutex(State(pool: Self.started(makeClient())))
    }

    deinit { close() }

    private static func started(_ client: PostgresClient) -> Pool {
        Pool(client: client, running: Task { await client.run() })
    }

    /// Stops the pool (its connections close) and any probing.
    func close() {
        state.withLock { state in
            state.closed = true
            state.pool.running.cancel()
            state.outage?.prober.cancel()
            state.outage = nil
        }
    }

    /// Runs `body` on a leased connection. Throws `Unreachable` when the database cannot be reached; what
    /// `body` throws otherwise.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let client: PostgresClient = try state.withLock { state in
            if let outage = state.outage { throw Unreachable(reason: outage.reason) }
            return state.pool.client
        }
        do {
            return try await leased(from: client, body)
        } catch let error as Unreachable {
            throw error
        } catch let error where Self.isConnectionFault(error) {
            // The connection broke, or the pool gave up connecting: the same request may well work when tried
            // again, so it is `Unreachable` either way. Only a probe tells a stopped database from one
            // connection an administrator ended, which must not cost the other requests their connections.
            if let reason = await probe() {
                declareOutage(reason)
                throw Unreachable(reason: reason)
            }
            throw Unreachable(reason: Self.reason(error))
        }
    }

    /// `body` on a connection of `client`'s, watched: a lease that waits past the patience is given up if
    /// the database does not answer a probe. `body` itself is never cut short (an import may take minutes).
    private func leased<T: Sendable>(from client: PostgresClient, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let patience = timing.leasePatience
        return try await withoutActuallyEscaping(body) { body in
            // The task group ends before this returns: `body` does not outlive the call, and only one child runs it.
            nonisolated(unsafe) let body = body
            let lease = LeaseFlag()
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        lease.got()
                        return try await body(connection)
                    }
                }
                group.addTask { [weak self] in
                    try await Task.sleep(for: patience)
                    guard !lease.isGot, let self, let reason = await self.probe() else { return nil }
                    self.declareOutage(reason)
                    throw Unreachable(reason: reason)
                }
                // The watch ends with nil when the lease came or the database answered; the lease ends with
                // `body`'s value (`T` may itself be optional: `.some(nil)` is an answer).
                while let next = try await group.next() {
                    if let value = next {
                        group.cancelAll()
                        return value
                    }
                }
                throw CancellationError()
            }
        }
    }

    /// Connects once on a connection of its own; nil when that worked, else why not. Requests failing
    /// together share one probe.
    private func probe() async -> String? {
        let probing: Task<String?, Never> = state.withLock { state in
            if let probing = state.probing { return probing }
            let probing = Task { [probeConfiguration, logger] in
                await Self.connectOnce(probeConfiguration, logger: logger)
            }
            state.probing = probing
            return probing
        }
        let reason = await probing.value
        state.withLock { state in
            if state.probing == probing { state.probing = nil }
        }
        return reason
    }

    private static func connectOnce(_ configuration: PostgresConnection.Configuration, logger: Logger) async -> String? {
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try? await connection.close()
            return nil
        } catch let error as PSQLError where error.serverInfo?[.sqlState].map(isUnreachableState) == false {
            // The server answered, with a refusal (too many connections, a password since changed): it is
            // there, and the pool's own leases will say what is wrong.
            return nil
        } catch {
            return reason(error)
        }
    }

    /// From now until a probe connects, every lease is refused at once.
    private func declareOutage(_ reason: String) {
        state.withLock { state in
            guard state.outage == nil, !state.closed else { return }
            let prober = Task { [weak self] in
                guard let self else { return }
                await self.probeUntilBack()
            }
            state.outage = (reason, prober)
        }
    }

    /// Probes every `probeInterval`; once one connects, puts a fresh pool in place of the old (whose
    /// connections died with the server, and whose backoff could keep it failing for up to a minute).
    private func probeUntilBack() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: timing.probeInterval)
            if Task.isCancelled { return }
            if let reason = await probe() {
                state.withLock { state in state.outage?.reason = reason }
                continue
            }
            let fresh = makeClient()
            let old: Pool? = state.withLock { state in
                guard !state.closed else { return nil }
                let old = state.pool
                state.pool = Self.started(fresh)
                state.outage = nil
                return old
            }
            // Leases still waiting in the old pool end with `poolClosed`, answered `Unreachable`: to be tried again.
            old?.running.cancel()
            return
        }
    }

    /// Whether `error` says the connection, or the way to the server, failed (not the SQL).
    static func isConnectionFault(_ error: any Error) -> Bool {
        if let transaction = error as? PostgresTransactionError {
            guard let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError else { return false }
            return isConnectionFault(inner)
        }
        if let psql = error as? PSQLError {
            if let state = psql.serverInfo?[.sqlState] { return isUnreachableState(state) }
            return [.connectionError, .serverClosedConnection, .uncleanShutdown, .poolClosed, .clientClosedConnection]
                .contains(psql.code)
        }
        return isPoolError(error) || error is NIOConnectionError || error is IOError || error is ChannelError
    }

    /// The pool's own refusal (its circuit breaker tripped after a minute without a connection).
    /// `ConnectionPoolError` lives in postgres-nio's internal module, which PostgresNIO does not export: known
    /// by its name.
    private static func isPoolError(_ error: any Error) -> Bool {
        String(describing: type(of: error)) == "ConnectionPoolError"
    }

    /// 08: a connection exception; 57P01–03: the server is shutting down, crashed, or not yet up again.
    static func isUnreachableState(_ sqlState: String) -> Bool {
        sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
    }

    /// Why a connection could not be made, in words (NIO's errors print as structures).
    static func reason(_ error: any Error) -> String {
        if let connection = error as? NIOConnectionError {
            if let first = connection.connectionErrors.first { return reason(first.error) }
            return "the host name does not resolve"
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] { return message }
            if let underlying = psql.underlying { return reason(underlying) }
            return psql.code == .connectionError ? "no connection" : "the connection closed"
        }
        if error is ChannelError { return "the connection closed" }
        if isPoolError(error) { return "no connection could be made" }
        return String(describing: type(of: error))
    }
}

/// Whether a lease got its connection, for the watch that decides whether to probe.
private final class LeaseFlag: Sendable {
    private let value = Mutex(false)
    func got() { value.withLock { $0 = true } }
    var isGot: Bool { value.withLock { $0 } }
}

private extension Duration {
    var wholeNanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
