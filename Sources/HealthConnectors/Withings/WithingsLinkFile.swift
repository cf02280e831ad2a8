import Foundation
import HealthCore
import HealthModel

/// What hmon keeps of one Withings link besides the store's push link (its id, user and hashed secret):
/// the person's own Withings developer app (client id and secret), the authorization's tokens, and how far
/// the measures have been read.
///
/// Kept in a file per link, `withings/LINK-ID.json` in hmon's data folder (mode 0600, folder 0700), not in
/// the store: the server that polls needs the client secret and tokens in clear to call Withings, so a
/// hash will not do, and a file only its owner can read keeps them off a PostgreSQL server shared with
/// other people and out of every backup and copy of the store (`hmon db copy`). Revoking the link
/// (`hmon link revoke`) deletes it.
public struct WithingsLink: Codable, Sendable, Equatable {
    public var linkID: String
    public var userID: String
    public var clientID: String
    public var clientSecret: String
    /// The link's path on `hmon serve`, `/withings/SECRET`: where the authorization and the notifications
    /// arrive. The store keeps only the secret's hash; the subscription needs it in clear.
    public var callbackPath: String
    /// The address Withings sends the person back to: `hmon serve`'s address and `callbackPath`.
    public var redirectURI: String
    /// The `state` of the authorization in progress; nil once it is done.
    public var pendingState: String?
    public var tokens: WithingsTokens?
    /// Withings' `updatetime` of the last fetch: the next one asks for what changed since (`lastupdate`).
    public var lastUpdate: Int64?
    /// The callback URL Withings was last subscribed to, so a server restarted with the same
    /// `--public-url` does not subscribe again.
    public var subscribedURL: String?

    public init(linkID: String, userID: String, clientID: String, clientSecret: String, callbackPath: String, redirectURI: String,
                pendingState: String?) {
        self.linkID = linkID
        self.callbackPath = callbackPath
        self.userID = userID
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.pendingState = pendingState
    }
}

/// The folder of `WithingsLink` files.
public typealias WithingsLinkFiles = PulledLinkFiles<WithingsLink>

extension WithingsLink: PulledLink {
    public static var sourceName: String { "Withings" }
    public static var kindName: String { "withings" }
}
