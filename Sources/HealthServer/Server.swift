import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// How `hmon serve` runs.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port (tests); `onRunning` tells which.
    public var port: Int
    /// Requests per minute and per day for each token (or address, without one); nil for no limit.
    public var rateLimit: RateLimit?
    /// Seconds an access token lives (`expires_in`).
    public var accessTokenLifetime: TimeInterval
    /// Seconds a refresh token lives; nil until revoked.
    public var refreshTokenLifetime: TimeInterval?
    /// Seconds an access token from Exist's `/oauth2/access_token` lives: a year, as Exist's do (many
    /// scripts written for Exist never refresh). Revoked at once like any other.
    public var existAccessTokenLifetime: TimeInterval = 365 * 24 * 3600
    /// Seconds an authorization code lives (the contract: 60).
    public var codeLifetime: TimeInterval
    /// The time, for token expiry and the rate-limit windows (tests move it forward).
    public var clock: @Sendable () -> Date
    /// Seconds a checked access token is trusted without asking the store again (0: always ask). Revoking
    /// through this server takes effect at once; a revocation by another process within this delay.
    public var tokenCacheLifetime: TimeInterval
    /// How long the store's change token is trusted before it is read again: how late a token revoked, or a
    /// reading written, by another process may still go unnoticed (writes through this server show at once).
    public var storeVersionWindow: Duration = .milliseconds(50)
    /// The proxies whose `X-Forwarded-For`/`Forwarded` name the client (`--trusted-proxy`); none by default.
    /// Their `X-Forwarded-Proto` and `X-Forwarded-Host` set the links' origin when there is no `publicURL`.
    public var trustedProxies: TrustedProxies = .none
    /// The address clients reach the server at (`--public-url`), for every absolute link it writes; nil:
    /// what a trusted proxy forwards, else `http://` and the request's `Host` (see `LinkOrigin`).
    public var publicURL: URL?
    /// Header, body, idle and write timeouts and the caps on open connections.
    public var limits: ConnectionLimits
    /// How each pulled source the server reads is read (`PulledSettings`, `hmon link add KIND`): a source of
    /// `PulledSources` without settings here has none of its routes served.
    public var pulledSources: [any PulledSourceSettings] = []
    /// The signing secrets of push links made with `--signing-secret-file` (`hmon link add health-connect`,
    /// or any push kind whose app signs); nil: no link is checked for a signature (a server that serves no such link).
    public var pushSigningSecrets: PushLinkSigningSecrets?
    /// The alert rules the server watches (`[[alerts]]` in config.toml); nil watches none.
    public var alerts: AlertSettings?
    /// Seconds between the change feed's heartbeats (`--feed-heartbeat`): under a proxy's idle timeout
    /// (nginx's default is 60 s), and how soon a client notices a connection that died without a word.
    public var feedHeartbeat: Duration = .seconds(15)
    /// How often the change feed reads the store's change token for writes made by other processes, while
    /// anyone follows the feed (writes through this server are told at once).
    public var feedWatchInterval: Duration = .milliseconds(100)
    /// Change feeds one user may hold open at once: a dashboard holds one.
    public var maxFeedsPerUser = 128
    /// For tests only: awaited before each request is handled, with its path and query, so a test can
    /// hold one answer back and see how a client copes with answers that arrive out of order. Nil in use.
    public var beforeEachRequest: (@Sendable (String) async -> Void)?
    /// For tests only: false answers as a server from before hmon's views (`/v1.1/hmon/views/…` are 404), to
    /// see the remote client fall back to computing screens from readings.
    public var servesViews = true

    public init(host: String = "127.0.0.1", port: Int = 8080, rateLimit: RateLimit? = .defaultForServe,
                accessTokenLifetime: TimeInterval = 3600, refreshTokenLifetime: TimeInterval? = 90 * 24 * 3600,
                codeLifetime: TimeInterval = 60, tokenCacheLifetime: TimeInterval = 5, limits: ConnectionLimits = .default,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.host = host
        self.port = port
        self.rateLimit = rateLimit
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.codeLifetime = codeLifetime
        self.tokenCacheLifetime = tokenCacheLifetime
        self.limits = limits
        self.clock = clock
    }
}

extension RateLimit {
    /// `hmon serve`'s default: room for a dashboard polling every few seconds all day.
    public static let defaultForServe = RateLimit(perMinute: 600, perDay: 100_000)
}

/// The SAMI-compatible REST server over a local store (see `sami-api.md`).
public enum HMonServer {
    /// Builds the application: routes, middleware (request log, error envelope, write visibility,
    /// authentication, rate limit), the connection guards (`GuardedHTTP1Channel`) and the password-check pool.
    /// Run it with `runService()` (stops gracefully on SIGINT/SIGTERM) or inside a `ServiceGroup`.
    ///
    /// - Parameters:
    ///   - logger: the request log (one line per request at `.info`).
    ///   - onRunning: called with the bound port once the server accepts connections.
    public static func application(store: any HealthStore, configuration: ServerConfiguration, logger: Logger,
                                   onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: ServerContext.self)
        if !configuration.trustedProxies.networks.isEmpty {
            router.add(middleware: ClientAddressMiddleware(proxies: configuration.trustedProxies))
        }
        router.add(middleware: FairShareMiddleware(turns: AddressTurns(perAddress: configuration.limits.requestsAtOncePerAddress),
                                                   trustedProxies: configuration.trustedProxies))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        let outages = DatabaseOutageLog(logger: logger)
        router.add(middleware: ErrorEnvelopeMiddleware(logger: logger, outages: outages))
        if let hook = configuration.beforeEachRequest {
            router.add(middleware: RequestHookMiddleware(hook: hook))
        }
        let tokenCache = TokenCache(lifetime: configuration.tokenCacheLifetime)
        let storeVersion = StoreVersionProbe(store: store, interval: configuration.storeVersionWindow)
        router.add(middleware: WriteVisibilityMiddleware(storeVersion: storeVersion))
        router.add(middleware: AuthenticationMiddleware(store: store, cache: tokenCache,
                                                        storeVersion: storeVersion, clock: configuration.clock))
        let changeFeed = ChangeFeed(store: store, heartbeat: configuration.feedHeartbeat,
                                    watchInterval: configuration.feedWatchInterval, maxPerUser: configuration.maxFeedsPerUser,
                                    clock: configuration.clock)
        router.add(middleware: ChangeFeedMiddleware(feed: changeFeed))
        if let limit = configuration.rateLimit {
            router.add(middleware: RateLimitMiddleware(limiter: RateLimiter(limit: limit), clock: configuration.clock, logger: logger,
                                                       outages: outages))
        }
        // One throttle for every route that takes a password: a guesser gains nothing by switching routes.
        let passwordSignIn = PasswordSignIn(store: store, passwords: PasswordCheckPool(), throttle: SignInThrottle(),
                                            checksPerAddress: PasswordChecksPerAddress(), clock: configuration.clock)
        OAuthRoutes(store: store, configuration: configuration, tokenCache: tokenCache, passwordSignIn: passwordSignIn,
                    refreshGrace: RefreshGrace()).add(to: router)
        ExistSimpleTokenRoute(store: store, signIn: passwordSignIn).add(to: router)
        let userServices = UserServices(store: store)
        APIRoutes(store: store, services: userServices, configuration: configuration, storeVersion: storeVersion,
                  lastMessagesCache: LastMessagesCache()).add(to: router)
        WelltoryRoutes(services: userServices, configuration: configuration).add(to: router)
        PushSources.add(to: router, links: store, services: userServices, configuration: configuration)
        ExistRoutes(store: store, services: userServices, configuration: configuration).add(to: router)
        var services: [any Service] = [passwordSignIn.passwords]
        let listening = ServerListening()
        let pulled = PulledSources.serve(on: router, store: store, services: userServices, configuration: configuration,
                                         listening: listening, logger: logger)
        services += pulled.map { $0 as any Service }
        if let alerts = configuration.alerts, !alerts.rules.isEmpty {
            services.append(AlertWatch(settings: alerts, store: store, clock: configuration.clock, logger: logger))
        }
        LinkedSourcesPollRoute(sources: pulled).add(to: router)
        ChangeFeedRoute(feed: changeFeed).add(to: router)

        // Hummingbird's own logging stays quiet unless something goes wrong; the request log is ours.
        var frameworkLogger = logger
        frameworkLogger.logLevel = max(logger.logLevel, .warning)
        // Every connection is a descriptor: the cap stays below the limit, with room for the store's files.
        let cap = min(configuration.limits.maxConnections, DescriptorLimit.current - ServerLimits.descriptorsReserved)
        // Behind a trusted proxy every user arrives from the proxy's address: it gets no per-address cap.
        let connections = OpenConnections(limit: cap, limitPerAddress: configuration.limits.connectionsPerAddress(totalCap: cap),
                                          trustedProxies: configuration.trustedProxies)
        return Application(
            router: router,
            server: .guardedHTTP1(limits: configuration.limits, connections: connections,
                                  refusedAddresses: RefusedAddresses(pauseSeconds: configuration.limits.refusedAddressPause,
                                                                     trustedProxies: configuration.trustedProxies)),
            // A burst of connections waits in the kernel's queue instead of being dropped (the kernel caps
            // it at net.core.somaxconn); the cap then answers the excess with a 503.
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "hmon",
                                 backlog: ServerLimits.acceptBacklog),
            services: services,
            onServerRunning: { channel in
                listening.open()
                await onRunning(channel.localAddress?.port ?? configuration.port)
            },
            logger: frameworkLogger)
    }
}

extension HMonServer {
    /// Runs the server until SIGINT or SIGTERM, then stops gracefully (requests in flight finish).
    /// A port that cannot be bound is a `HealthError` with a message saying what to do.
    public static func run(store: any HealthStore, configuration: ServerConfiguration, logger: Logger,
                           onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        DescriptorLimit.raiseToHardLimit()
        if let signingSecrets = configuration.pushSigningSecrets {
            let (moved, problems) = await signingSecrets.moveIntoStore(store)
            if moved > 0 {
                logger.info("moved the signing secrets of \(moved) push link(s) from \(signingSecrets.folder.path) into the store: every server of it now checks their signatures")
            }
            for problem in problems { logger.warning("\(problem)") }
        }
        let app = application(store: store, configuration: configuration, logger: logger, onRunning: onRunning)
        do {
            try await app.runService()
        } catch let error as IOError {
            let place = "\(configuration.host):\(configuration.port)"
            switch error.errnoCode {
            case EADDRINUSE: throw HealthError.invalidValue("\(place) is already in use: stop the other server or pass another --port")
            case EACCES: throw HealthError.invalidValue("not allowed to listen on \(place): pick a port above 1023 with --port")
            case EADDRNOTAVAIL: throw HealthError.invalidValue("\(configuration.host) is not an address of this machine: pass another --host")
            default: throw HealthError.invalidValue("cannot listen on \(place): \(error)")
            }
        }
    }
}
