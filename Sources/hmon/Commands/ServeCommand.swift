import ArgumentParser
import Foundation
import HealthAlerts
import HealthCore
import SAMIContract
import HealthConnectors
import HealthModel
import HMonCommandLine
import HealthServer
import Logging
import RemoteClient

/// `hmon serve`: the SAMI-compatible REST API over the local store, for scales, phones, scripts and other
/// terminals (`hmon --server URL`). Stops gracefully on Ctrl-C or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    /// The links the help says the server serves, and how often it reads the pulled ones.
    static var linksServed: String {
        let names = PushSources.appNames + PulledSources.all.map { $0.sourceName }
        let reads = PulledSources.all.map { "each \($0.sourceName) link every --\($0.pollOption)" }
        return "the \(Wording.list(names)) links `hmon link add` makes, reading \(Wording.list(reads)), and on their notifications "
            + "when --public-url is set"
    }

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over HTTP: SAMI's REST API, Exist's API v2 and Welltory's callback.",
        discussion: """
            Serves, over the store --db names (an SQLite file or a postgres:// URL): OAuth2 sign-in \
            (/authorize, /token; Exist's /oauth2/authorize, /oauth2/access_token); SAMI's /v1.1 (users, devices, device types, messages); Exist's /api/2 \
            (attributes, templates and values, averages, correlations, insights, acquire, create, update, \
            increment, the simple token); and the \
            Welltory callback link `hmon hrv link` makes; \(Self.linksServed). Routes and examples: \
            \((["docs/server.md"] + PulledSources.all.map { $0.linkWords.docsPage }).joined(separator: ", ")).

            Listens on 127.0.0.1 by default: pass --host 0.0.0.0 to serve other machines, behind a TLS proxy \
            (tokens and passwords travel in the clear over plain HTTP). One log line per request goes to \
            standard error. A connection is closed when it takes longer than --header-timeout to send its \
            headers, --body-timeout its body, waits longer than --idle-timeout for its next request, or leaves \
            an answer unread for --write-timeout. Past --max-connections open at once, or \
            --max-connections-per-address from one address, a new connection takes the place of the oldest \
            idle or half-sent one; when every one is busy with a request, it is answered 503.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(name: .customLong("rate-limit"),
            help: ArgumentHelp("Requests per minute/per day for each token (or address), or \"off\".", valueName: "minute/day"))
    var rateLimit = RateLimit.defaultForServe.description

    @Option(name: .customLong("header-timeout"),
            help: ArgumentHelp("Seconds a request may take from its first byte to the end of its headers.", valueName: "seconds"))
    var headerTimeout = ConnectionLimits.default.headerTimeout

    @Option(name: .customLong("body-timeout"),
            help: ArgumentHelp("Seconds a request may take from its headers to the end of its body.", valueName: "seconds"))
    var bodyTimeout = ConnectionLimits.default.bodyTimeout

    @Option(name: .customLong("idle-timeout"),
            help: ArgumentHelp("Seconds an open connection may wait for its next request before it is closed.", valueName: "seconds"))
    var idleTimeout = ConnectionLimits.default.idleTimeout

    @Option(name: .customLong("write-timeout"),
            help: ArgumentHelp("Seconds an answer may wait for a client that does not read it before the connection is closed.",
                               valueName: "seconds"))
    var writeTimeout = ConnectionLimits.default.writeTimeout

    @Option(name: .customLong("max-connections"),
            help: ArgumentHelp("Connections open at once (kept below the descriptor limit); one more replaces the oldest idle or "
                               + "half-sent one, or is answered 503 when all are busy.", valueName: "count"))
    var maxConnections = ConnectionLimits.default.maxConnections

    @Option(name: .customLong("max-connections-per-address"),
            help: ArgumentHelp("Connections open at once from one address, trusted proxies excepted (default: a quarter of "
                               + "--max-connections).", valueName: "count"))
    var maxConnectionsPerAddress: Int?

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("A proxy (address or CIDR, repeatable) whose X-Forwarded-For or Forwarded header names the client, "
                               + "for rate limits and sign-in throttling behind a TLS proxy.", valueName: "cidr"))
    var trustedProxy: [String] = []

    @Option(name: .customLong("public-url"),
            help: ArgumentHelp("The address clients reach this server at, behind a TLS proxy (e.g. https://health.example): "
                               + "every absolute link the server writes starts with it, and "
                               + "\(Wording.list(PulledSources.all.map { $0.sourceName })) links are subscribed to "
                               + "notifications there (https).", valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("exist-token-days"),
            help: ArgumentHelp("Days an access token made at Exist's /oauth2/access_token lives (Exist's own live a year; "
                               + "many scripts never refresh). Revoking one still takes effect at once.", valueName: "days"))
    var existTokenDays = 365

    @OptionGroup var pulled: PulledServeFlags

    @Option(name: .customLong("feed-heartbeat"),
            help: ArgumentHelp("Seconds between heartbeats on the change feed dashboards hold open (keep it under your "
                               + "proxy's idle timeout).", valueName: "seconds"))
    var feedHeartbeat = 15.0

    @OptionGroup var alertFiles: AlertFiles

    @Option(name: .customLong("alert-interval"),
            help: ArgumentHelp("Seconds between checks of the [[alerts]] rules in config.toml (docs/server.md#alerts).", valueName: "seconds"))
    var alertInterval = 300.0

    var limits: ConnectionLimits {
        ConnectionLimits(headerTimeout: headerTimeout, bodyTimeout: bodyTimeout, idleTimeout: idleTimeout,
                         writeTimeout: writeTimeout, maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerAddress)
    }

    func validate() throws {
        for (name, seconds) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout),
                                ("--write-timeout", writeTimeout)] {
            guard seconds.isFinite, seconds >= 0.1, seconds <= 3600 else {
                throw ValidationError("\(name) \(seconds) is not a number of seconds from 0.1 to 3600 (e.g. \(name) 5)")
            }
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections \(maxConnections) is not a count from 1 to 1000000 (e.g. --max-connections 2000)")
        }
        if let perAddress = maxConnectionsPerAddress, !(1...maxConnections).contains(perAddress) {
            throw ValidationError("--max-connections-per-address \(perAddress) is not a count from 1 to --max-connections "
                                  + "(\(maxConnections)) (e.g. --max-connections-per-address 500)")
        }
        for proxy in trustedProxy where TrustedProxies.Network(proxy) == nil {
            throw ValidationError("--trusted-proxy \(proxy) is not an address or a network (e.g. --trusted-proxy 127.0.0.1 or 10.0.0.0/8)")
        }
        if let publicURL, LinkOrigin.checkPublicURL(publicURL) == nil {
            throw ValidationError("--public-url \(publicURL) is not an http or https address with a host and no query (e.g. --public-url https://health.example)")
        }
        guard (1...3650).contains(existTokenDays) else {
            throw ValidationError("--exist-token-days \(existTokenDays) is not a number of days from 1 to 3650 (e.g. --exist-token-days 30)")
        }
        try pulled.check()
        guard feedHeartbeat.isFinite, feedHeartbeat >= 0.1, feedHeartbeat <= 3600 else {
            throw ValidationError("--feed-heartbeat \(feedHeartbeat) is not a number of seconds from 0.1 to 3600 (e.g. --feed-heartbeat 15)")
        }
        guard alertInterval.isFinite, alertInterval >= 0.1, alertInterval <= 86_400 else {
            throw ValidationError("--alert-interval \(alertInterval) is not a number of seconds from 0.1 to 86400 (e.g. --alert-interval 300)")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port: use 1–65535 (0 for any free port)") }
        guard rateLimit == "off" || RateLimit(rateLimit) != nil else {
            throw ValidationError("--rate-limit \(rateLimit) is not PER-MINUTE/PER-DAY (e.g. 100/1000, the day's at least the minute's) or off")
        }
    }

    func run() async throws {
        // The rules first: a mistake in them stops the server before it opens anything.
        let alertRules = try alertFiles.rules()
        let opener = StoreOpener(database)
        let store = try await opener.openStore(.create, patience: .standard)
        // One line per request, written by a thread of its own so no request waits on standard error.
        var logger = Logger(label: "hmon.server") { label in BackgroundLogHandler(label: label) }
        logger.logLevel = .info
        defer { BackgroundLogWriter.standardError.flush() }
        var configuration = ServerConfiguration(host: host, port: port, rateLimit: RateLimit(rateLimit), limits: limits)
        configuration.trustedProxies = TrustedProxies(trustedProxy.compactMap(TrustedProxies.Network.init))
        configuration.publicURL = publicURL.flatMap(LinkOrigin.checkPublicURL)
        configuration.existAccessTokenLifetime = TimeInterval(existTokenDays) * 24 * 3600
        configuration.pulledSources = pulled.settings(paths: opener.paths)
        configuration.pushSigningSecrets = PushLinkSigningSecrets(paths: opener.paths)
        configuration.feedHeartbeat = .milliseconds(Int((feedHeartbeat * 1000).rounded()))
        if !alertRules.isEmpty {
            configuration.alerts = AlertSettings(rules: alertRules, interval: .milliseconds(Int((alertInterval * 1000).rounded())),
                                                 stateFile: AlertFiles.stateFile(opener.paths),
                                                 delivery: AlertDelivery(transport: PulledHTTPTransport(timeout: 15)))
            logger.info("watching \(alertRules.count) alert rule(s) from \(alertFiles.configFile.path) every \(alertInterval) s")
        }
        let host = self.host
        try await HMonServer.run(store: store, configuration: configuration, logger: logger) { port in
            // Written unbuffered: scripts and tests wait for this line to know the port.
            FileHandle.standardOutput.write(Data("hmon: serving \(TerminalText.escaped(store.location)) on http://\(host):\(port) (Ctrl-C stops)\n".utf8))
        }
        printEscaped("hmon: stopped")
    }
}
