import Foundation

/// What `hmon serve` needs of a pulled source beyond reading it, said without the server's framework: what
/// the link's own address answers (the source's notifications, its checks of the callback), the lines its
/// subscriptions and reads bring to the log, its poll route's answer and its linked page's words. The
/// server does the rest once for every source of `PulledSources` (`PulledLinkRoutes`, `PulledPolling`).
public protocol ServedPulledSource: PulledSource {
    associatedtype PollAnswer: Encodable & Sendable

    /// The methods the link's address answers besides GET (the authorization's return).
    static var callbackMethods: [PulledCallback.Method] { get }
    /// How a POST to the link's address is read: as a form (a NUL in it is a 400), or as bytes.
    static var callbackBody: PulledCallback.Body { get }
    /// Whether a GET with this query is the authorization's return (else it is answered by `answer`); nil
    /// for a query that cannot be read, which the authorization's return says is wrong.
    static func isAuthorizationReturn(_ query: [String: String]?) -> Bool
    /// What a request at `link`'s address (found by its secret) is answered, and whether it has the link read.
    static func answer(_ callback: PulledCallback, link: Link) -> PulledCallback.Answer

    /// The answer of `POST /v1.1/hmon/KIND/poll` for the caller's reads.
    static func pollAnswer(_ fetches: [Fetch]) -> PollAnswer

    /// Subscribes the links to notifications at `base` (the public URL), answering what to log.
    static func subscribe(_ sync: PulledSync<Self>, base: String, pollInterval: Duration) async throws -> [PulledLogLine]
    /// Warnings a read brings even when it worked (what it refused).
    static func warnings(_ fetch: Fetch) -> [String]
    /// Whether a read changed anything worth a line in the log when nobody asked for it.
    static func isNews(_ fetch: Fetch) -> Bool
    /// What a read added, as the log says it ("2 new weigh-ins").
    static func summary(_ fetch: Fetch) -> String

    /// The linked page's words: what hmon now reads.
    static var linkedText: String { get }
    /// Whether a link just authorized has its subscriptions seen to before its first read, rather than at
    /// the next round.
    static var subscribesOnceLinked: Bool { get }
}

extension ServedPulledSource {
    public static func isAuthorizationReturn(_ query: [String: String]?) -> Bool { true }

    /// The link's path prefix on `hmon serve`, `/KIND/`, each link's secret after it.
    public static var routePrefix: String { "/\(Link.kindName)/" }
    /// Its poll route, `POST /v1.1/hmon/KIND/poll`: served by `hmon serve`, asked by a remote dashboard's R of
    /// a server from before the all-links poll.
    public static var pollPath: String { "/v1.1/hmon/\(Link.kindName)/poll" }
}

/// One line for the server's log.
public struct PulledLogLine: Sendable, Equatable {
    public enum Level: Sendable { case info, warning }
    public var level: Level
    public var text: String

    public static func info(_ text: String) -> Self { Self(level: .info, text: text) }
    public static func warning(_ text: String) -> Self { Self(level: .warning, text: text) }
}
