import Foundation

/// A pulled source's link as its file keeps it: the person's own app's secret and the authorization's
/// tokens, which the server needs in clear to call the source, so they live in a 0600 file of hmon's data
/// folder rather than in the store (see `WithingsLink`).
public protocol PulledLink: Codable, Sendable {
    associatedtype Tokens: PulledTokens

    var linkID: String { get }
    /// The hmon user whose readings the link brings.
    var userID: String { get }
    /// The person's own app at the source.
    var clientID: String { get }
    var clientSecret: String { get }
    /// The link's path on `hmon serve`, `/KIND/SECRET`: where the authorization and the notifications arrive.
    var callbackPath: String { get }
    /// The address the source sends the person back to: `hmon serve`'s address and `callbackPath`.
    var redirectURI: String { get }
    /// The `state` of the authorization in progress; nil once it is done.
    var pendingState: String? { get set }
    /// The authorization's tokens; nil until the person allowed hmon.
    var tokens: Tokens? { get set }

    /// A new link waiting for its authorization (`state` is `pendingState`), as `hmon link add` makes it.
    init(linkID: String, userID: String, clientID: String, clientSecret: String, callbackPath: String, redirectURI: String,
         pendingState: String?)

    /// The source's name in messages ("Withings").
    static var sourceName: String { get }
    /// The link kind `hmon link add` takes, and the data folder's subfolder ("withings").
    static var kindName: String { get }
}

/// The tokens of an OAuth authorization as a pulled source answers them: the access token every call
/// carries, and when it stops working.
public protocol PulledTokens: Codable, Sendable {
    var accessToken: String { get }
    var expiresAt: Date { get }
}
