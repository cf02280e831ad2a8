import Foundation
import HealthCore

/// A source hmon pulls readings from with the person's own OAuth app: its API client, where it is, the
/// link kind it reads, what one read of a link is and how a person linking it is spoken to. The rest
/// (links taking turns, tokens refreshed and kept, a problem said instead of thrown, the link's words) is
/// the same for every such source (`PulledSync`, `PulledLinkText`).
public protocol PulledSource: Sendable {
    associatedtype Link: PulledLink
    associatedtype Refusal: PulledRefusal
    associatedtype Fetch: PulledFetch
    /// What one read brings from the source, before it is kept.
    associatedtype Batch: Sendable
    /// Where the source's API and pages are.
    associatedtype Endpoints: PulledEndpoints

    /// The API at `endpoints`, over the HTTP client the executable passes.
    init(endpoints: Endpoints, transport: any PulledTransport)
    /// The words `hmon link add KIND` and `hmon serve` say of the source.
    static var linkWords: PulledLinkWords { get }
    /// Whose account a link just authorized reads, as `hmon link add` says it ("Withings user 123").
    static func account(of tokens: Link.Tokens) -> String

    /// The store's kind of push link whose files this source reads: its link's `kindName`.
    static var linkKind: PushLinkKind { get }
    /// How often `hmon serve` reads every link unless told otherwise: a safety net beside the source's
    /// notifications, and the only way without a public URL.
    static var defaultPollInterval: Duration { get }

    /// Trades an authorization's code for tokens.
    func requestToken(code: String, clientID: String, clientSecret: String, redirectURI: String, now: Date) async throws -> Link.Tokens
    /// New tokens for old: the refresh token in the answer replaces the one used.
    func refresh(_ tokens: Link.Tokens, clientID: String, clientSecret: String, now: Date) async throws -> Link.Tokens

    /// Asks the source what is new for `link` since its last read.
    func read(_ link: Link, accessToken: String, now: Date) async throws -> Batch
    /// Stores what was read as the link's user's readings, tells `outcome` what that did, and moves the
    /// link's place on, so the next read starts where this one ended.
    func keep(_ batch: Batch, link: inout Link, service: LocalHealthService, now: Date, outcome: inout Fetch) async throws
}

extension PulledSource {
    public static func account(of tokens: Link.Tokens) -> String { Link.sourceName }

    /// The source's name in messages ("Withings"), its link's kind ("withings"): asked of the source itself
    /// where it is one of a list.
    public static var sourceName: String { Link.sourceName }
    public static var kindName: String { Link.kindName }
    public static var linkKind: PushLinkKind { PushLinkKind(Link.kindName) }
}
