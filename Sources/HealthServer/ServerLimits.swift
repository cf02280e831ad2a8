import Foundation

/// How long a connection may take over each part of an exchange, and how many may be open at once.
/// Without these, connections that send nothing, or half a request, stay open until the process runs
/// out of file descriptors and real users time out. `hmon serve --header-timeout …` and its
/// siblings change them.
public struct ConnectionLimits: Sendable, Equatable {
    /// Seconds from a request's first byte until its whole head (request line and headers) has arrived.
    public var headerTimeout: TimeInterval
    /// Seconds from a request's head until its body has arrived (bodies are at most 10 KB).
    public var bodyTimeout: TimeInterval
    /// Seconds an open connection may wait for the first byte of its next request (keep-alive), or of its
    /// first one after connecting.
    public var idleTimeout: TimeInterval
    /// Seconds an answer may stay stuck because the client does not read it (the connection cannot take
    /// more bytes); it starts again each time the client reads enough for the connection to take bytes again.
    public var writeTimeout: TimeInterval
    /// Connections open at once. One more takes the place of the oldest connection that is idle or has sent
    /// only part of a request head; when there is none, it is answered 503 and closed as soon as it is
    /// accepted. The server also keeps this below the process's descriptor limit (see `DescriptorLimit`).
    public var maxConnections: Int
    /// Connections open at once from one peer address, shed and refused as past `maxConnections`; nil for a
    /// quarter of the total cap in force. A trusted proxy's address (`--trusted-proxy`) has no such cap.
    public var maxConnectionsPerAddress: Int?
    /// Requests of one peer address handled at once, however many connections carry them; more wait their
    /// turn (`AddressTurns`). A trusted proxy's own address has no such cap (its forwarded clients do).
    public var requestsAtOncePerAddress: Int
    /// Seconds an address's new connections wait before they are read after one of its connections was closed
    /// for going on through ten refusals in a row (`RefusedAddresses`): longer than a flood takes to
    /// reconnect, short for a person behind the same address.
    public var refusedAddressPause: TimeInterval

    public init(headerTimeout: TimeInterval = 5, bodyTimeout: TimeInterval = 10, idleTimeout: TimeInterval = 10,
                writeTimeout: TimeInterval = 10, maxConnections: Int = 2000, maxConnectionsPerAddress: Int? = nil,
                requestsAtOncePerAddress: Int = 4, refusedAddressPause: TimeInterval = 5) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.requestsAtOncePerAddress = requestsAtOncePerAddress
        self.refusedAddressPause = refusedAddressPause
    }

    /// `maxConnectionsPerAddress`, or its default: a quarter of `totalCap` (`maxConnections`, or less when
    /// the descriptor limit is lower), so that one host can never hold every place by itself.
    func connectionsPerAddress(totalCap: Int) -> Int {
        maxConnectionsPerAddress ?? max(1, totalCap / 4)
    }

    /// `hmon serve`'s defaults: generous for a phone on a slow network, short enough that idle sockets
    /// cannot pile up (a few thousand a minute at most, far below the descriptor limit).
    public static let `default` = ConnectionLimits()
}

enum ServerLimits {
    /// "at most 10 KB" (`POST /v1.1/messages`); applied to every body.
    static let maxBodyBytes = 10 * 1024
    /// A Health Auto Export payload (`POST /health-auto-export/…`): a year of minute data for the metrics hmon
    /// keeps is some tens of megabytes. Streamed to a temporary file, never held in memory (`BodySpool`).
    static let healthAutoExportMaxBodyBytes = 256 * 1024 * 1024
    /// A Health Connect payload (`POST /health-connect/…`), held in memory to check its signature and read
    /// it: the apps send at most two days of records, dense series bucketed.
    static let healthConnectMaxBodyBytes = 32 * 1024 * 1024
    /// `Retry-After` of a 503 for a busy store: the writer holding it has usually finished by then.
    static let busyRetryAfterSeconds = 2
    /// `Retry-After` of a 503 while the database cannot be reached: the store probes for its return every
    /// quarter second and takes requests again at once, so a client waits little more than this.
    static let unreachableRetryAfterSeconds = 2
    /// `Retry-After` of a connection refused past the cap: every open one was then busy with a request (idle and
    /// half-sent ones are shed first), and requests are answered within seconds.
    static let connectionsFullRetryAfterSeconds = 5
    /// Connections the kernel may hold for the server before it accepts them (Hummingbird's default: 256).
    static let acceptBacklog = 1024
    /// Descriptors kept free of connections: the store's SQLite files, logs, the listening socket.
    static let descriptorsReserved = 64
    /// 429s in a row on one connection before it is closed (`RefusalStreakHandler`): a client that waits as
    /// told never sees this many; one that pipelines on regardless is disconnected.
    static let refusalsBeforeClose = 10
    /// The most one read of a connection takes from its socket (`GuardedHTTP1Channel`): a few requests' worth,
    /// or a quarter of a second of a fast upload's body.
    static let readBytes = 16 * 1024
}
