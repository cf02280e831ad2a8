import Foundation
import HealthCore
import HealthModel

/// What hmon keeps of one Oura link besides the store's push link (its id, user and hashed secret): the
/// person's own Oura app (client id and secret), the authorization's tokens, the webhook subscriptions and
/// how far the nights have been read.
///
/// Kept as Withings' are (`WithingsLink`), in a file per link, `oura/LINK-ID.json` in hmon's data folder
/// (mode 0600, folder 0700), not in the store: the server needs the client secret and tokens in clear to
/// call Oura, and a file only its owner can read keeps them out of a shared PostgreSQL server and of every
/// copy of the store. Revoking the link (`hmon link revoke`) deletes it.
public struct OuraLink: Codable, Sendable, Equatable {
    public var linkID: String
    public var userID: String
    public var clientID: String
    public var clientSecret: String
    /// The link's path on `hmon serve`, `/oura/SECRET`: where the authorization, Oura's check of a
    /// subscription and the notifications arrive. The store keeps only the secret's hash.
    public var callbackPath: String
    /// The address Oura sends the person back to: `hmon serve`'s address and `callbackPath`.
    public var redirectURI: String
    /// The `state` of the authorization in progress; nil once it is done.
    public var pendingState: String?
    public var tokens: OuraTokens?
    /// What Oura must echo when it checks the callback before subscribing it (`verification_token`).
    public var verificationToken: String
    /// The subscriptions made for this link, renewed before they expire.
    public var subscriptions: [OuraSubscription] = []
    /// The last day whose nights were read: the next pull starts a few days before it, for nights Oura
    /// completes or corrects late.
    public var readThrough: Day?

    public init(linkID: String, userID: String, clientID: String, clientSecret: String, callbackPath: String, redirectURI: String,
                pendingState: String?, verificationToken: String) {
        self.linkID = linkID
        self.userID = userID
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.callbackPath = callbackPath
        self.redirectURI = redirectURI
        self.pendingState = pendingState
        self.verificationToken = verificationToken
    }
}

/// The folder of `OuraLink` files.
public typealias OuraLinkFiles = PulledLinkFiles<OuraLink>

extension OuraLink: PulledLink {
    /// A new link, with a verification token of its own for Oura's check of its callback.
    public init(linkID: String, userID: String, clientID: String, clientSecret: String, callbackPath: String, redirectURI: String,
                pendingState: String?) {
        self.init(linkID: linkID, userID: userID, clientID: clientID, clientSecret: clientSecret, callbackPath: callbackPath,
                  redirectURI: redirectURI, pendingState: pendingState, verificationToken: Secrets.newToken())
    }

    public static var sourceName: String { "Oura" }
    public static var kindName: String { "oura" }
}
