import Foundation
import HealthModel

/// What kind of link it is: the app that pushes readings to it, or the source whose account it reads. The
/// table keeps the kind as text, so a later kind needs no migration. The apps that push are named here; a
/// pulled source names its own kind in its connector (`PulledSource.linkKind`, its link's `kindName`), so
/// adding one touches nothing here.
public struct PushLinkKind: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    /// The kind written `name`, as the table keeps it.
    public init(_ name: String) {
        rawValue = name
    }

    /// Any kind a store holds, known to this hmon or not (a later one's links are listed as what they are); nil
    /// for no name.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self.init(rawValue)
    }

    /// The Health Auto Export iPhone app's REST API automation (`POST /health-auto-export/SECRET`).
    public static let healthAutoExport = PushLinkKind("health-auto-export")
    /// An Android app posting Health Connect records (`POST /health-connect/SECRET`): Life Dashboard
    /// Companion or HC Webhook. An optional signing secret is in a `PushLinkSigningSecrets` file.
    public static let healthConnect = PushLinkKind("health-connect")
    /// openScale-sync's webhook (`POST /openscale/SECRET`): every insert, update, delete and clear of the
    /// scale app's database, mirrored.
    public static let openScale = PushLinkKind("openscale")
}

/// A push link as `hmon link list` shows it: never the secret, which is kept only as its SHA-256.
public struct PushLink: Sendable, Equatable {
    public var id: String
    public var kind: PushLinkKind
    public var userName: String
    public var createdAt: Date
    /// When a request last arrived on it; nil if none has.
    public var lastUsedAt: Date?

    package init(id: String, kind: PushLinkKind, userName: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.kind = kind
        self.userName = userName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Links an app pushes readings to: a secret URL per user (`hmon link add`), stored hashed.
public protocol PushLinkStore: AnyObject, Sendable {
    /// Makes a link for the user; returns its id and the secret in clear, this once (256 random bits). With a
    /// `signingSecret`, the link takes only bodies signed with it (`X-Signature`), on every server of the store.
    func createPushLink(kind: PushLinkKind, userID: String, signingSecret: String?, at now: Date) async throws -> (id: String, secret: String)
    /// Every link, oldest first, with its user's name.
    func pushLinks() async throws -> [PushLink]
    /// Revokes the link with this id; false when there is none.
    func revokePushLink(id: String) async throws -> Bool
    /// Revokes every link of this kind (of one user, or of all with nil); returns how many.
    func revokePushLinks(kind: PushLinkKind, userID: String?) async throws -> Int
    /// The user a secret of this kind stands for and the link's signing secret, noting the time it was used;
    /// nil for an unknown or revoked one.
    func pushLinkHolder(secret: String, kind: PushLinkKind, now: Date) async throws -> PushLinkHolder?
    /// Makes the link follow `sourceUser`, the app's own user (openScale keeps several people per phone), unless it
    /// follows one already; returns the one it follows, nil when there is no such link.
    func followSourceUser(_ sourceUser: Int, linkID: String) async throws -> Int?
    /// Keeps a signing secret with the link whose id and URL-secret hash these are, if it has none yet: how a
    /// secret made before the store kept them moves out of one server's data folder. False when there is no
    /// such link, or it has one already.
    func adoptSigningSecret(_ signingSecret: String, linkID: String, secretHash: String) async throws -> Bool
    /// Notes what a post or read by the link brought (`LinkArrival`): its readings counted on the day of `now`
    /// (UTC), its refusals kept among the link's latest `LinkHealth.refusalsListed`, its time as the last
    /// arrival. Days older than `LinkHealth.daysKept` are dropped. Nothing for a link that is gone.
    func noteArrival(_ arrival: LinkArrival, linkID: String, at now: Date) async throws
    /// Every link with what came by it from `sinceDay` (UTC days since 1970) on, oldest link first.
    func linkHealth(sinceDay: Int64) async throws -> [LinkHealth]
}

/// Whom a push link's secret stands for, and what its posts must be signed with.
public struct PushLinkHolder: Sendable, Equatable {
    public var linkID: String
    public var userID: String
    /// The key the app signs each body with (`X-Signature: sha256=HMAC`), kept with the link so every server
    /// of one store verifies alike; nil for a link made without one (a link made before the store kept it
    /// may have its own in a `PushLinkSigningSecrets` file).
    public var signingSecret: String?
    /// The app's own user whose readings the link keeps (openScale's `userId`); nil until it hears from one.
    public var sourceUser: Int?

    public init(linkID: String, userID: String, signingSecret: String?, sourceUser: Int?) {
        self.linkID = linkID
        self.userID = userID
        self.signingSecret = signingSecret
        self.sourceUser = sourceUser
    }
}

extension PushLinkStore {
    public func createPushLink(kind: PushLinkKind, userID: String, signingSecret: String? = nil, now: Date = Date()) async throws
        -> (id: String, secret: String) {
        try await createPushLink(kind: kind, userID: userID, signingSecret: signingSecret, at: now)
    }

    /// The user a secret of this kind stands for (`pushLinkHolder`).
    public func pushLinkUser(secret: String, kind: PushLinkKind, now: Date) async throws -> String? {
        try await pushLinkHolder(secret: secret, kind: kind, now: now)?.userID
    }
}
