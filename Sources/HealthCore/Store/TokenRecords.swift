import Foundation
import HealthModel

/// What a token is for.
public enum TokenKind: String, Codable, Sendable, CaseIterable {
    /// An OAuth2 bearer token for the REST API.
    case access
    /// An OAuth2 refresh token.
    case refresh
    /// An OAuth2 authorization code (short-lived, single use: see `consumeToken`).
    case code
    /// A local sign-in saved in `session.json`.
    case session
}

/// What the store knows about a token. The token itself is never stored, only its SHA-256.
public struct TokenRecord: Sendable, Equatable {
    public var kind: TokenKind
    /// The user the token acts for; nil for a client's own token (`client_credentials`).
    public var userID: String?
    public var clientID: String?
    public var scope: String?
    public var redirectURI: String?
    public var expiresAt: Date?
    public var createdAt: Date
    /// The OAuth grant the token belongs to: an authorization code and every token issued from it, through
    /// each refresh. Replaying a spent code or refresh token revokes the family (see `redeemToken`).
    public var family: String?
    /// An authorization code's PKCE challenge (RFC 7636, S256): the code is exchanged only with the
    /// verifier it was made from. Nil for other tokens and for codes asked for without one.
    public var codeChallenge: String?

    public init(kind: TokenKind, userID: String?, clientID: String? = nil, scope: String? = nil,
                redirectURI: String? = nil, expiresAt: Date?, createdAt: Date, family: String? = nil,
                codeChallenge: String? = nil) {
        self.kind = kind
        self.userID = userID
        self.clientID = clientID
        self.scope = scope
        self.redirectURI = redirectURI
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.family = family
        self.codeChallenge = codeChallenge
    }
}

/// What presenting a single-use token (a code, a rotating refresh token) came to.
public enum Redemption: Sendable, Equatable {
    /// First use: the token is now spent; here is what it granted.
    case redeemed(TokenRecord)
    /// Already spent: someone replayed it, so every live token of its family was revoked (this many).
    case replayed(revoked: Int)
    /// Unknown, expired, revoked or of another kind.
    case invalid
}

/// An OAuth2 client of the REST server.
public struct OAuthClient: Sendable, Equatable {
    public var id: String
    public var name: String
    public var redirectURI: String?
    /// The user whose devices the client's own (`client_credentials`) tokens post to; nil when it may
    /// only act for people who sign in through it.
    public var ownerID: String?
    public var createdAt: Date

    public init(id: String, name: String, redirectURI: String?, ownerID: String? = nil, createdAt: Date) {
        self.id = id
        self.name = name
        self.redirectURI = redirectURI
        self.ownerID = ownerID
        self.createdAt = createdAt
    }
}
