import Foundation
import HealthCore

/// A source hmon pulls readings from with the person's own OAuth app (Withings, Oura): its API client,
/// the link kind it reads, and what one read of a link is. The rest (links taking turns, tokens refreshed
/// and kept, a problem said instead of thrown) is the same for every such source (`PulledSync`).
public protocol PulledSource: Sendable {
    associatedtype Link: PulledLink
    associatedtype Refusal: PulledRefusal
    associatedtype Fetch: PulledFetch
    /// What one read brings from the source, before it is kept.
    associatedtype Batch: Sendable

    /// The store's kind of push link whose files this source reads.
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
