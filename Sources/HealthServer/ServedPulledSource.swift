import Foundation
import HealthConnectors
import Hummingbird
import Logging

/// What the server says of one pulled source that another does not: its routes beside the shared ones
/// (notifications, the source's checks of its callback), how it subscribes to the source's notifications,
/// what a read did in its log, its poll route's answer and its linked page's words. `PulledSources` lists
/// every one the server serves.
protocol ServedPulledSource: PulledSource {
    associatedtype PollAnswer: Encodable & Sendable

    /// Adds the source's own routes at its link's prefix (`PulledLinkRoutes.prefix`); the authorization's
    /// return is `shared.authorized` and the poll route is added by `PulledSources`.
    static func addRoutes(_ shared: PulledLinkRoutes<Self>, to router: Router<ServerContext>)

    /// The answer of `POST /v1.1/hmon/KIND/poll` for the caller's reads.
    static func pollAnswer(_ fetches: [Fetch]) -> PollAnswer

    /// Subscribes the links to notifications at `base` (the public URL) and logs what it did.
    static func subscribe(_ polling: PulledPolling<Self>, base: String) async throws
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
