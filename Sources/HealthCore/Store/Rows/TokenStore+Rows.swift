import Foundation
import HealthModel

/// Tokens and OAuth clients, once for both engines: a store that keeps their rows (`TokenRows`) gets these.
extension TokenStore where Self: TokenRows {
    /// Creates a token (256 random bits) and returns it in clear — the only time it exists in clear.
    /// Times are kept to the millisecond, so the record returned is the record stored.
    /// - Parameter ttl: seconds until it expires; nil for a token that lives until revoked.
    /// - Parameter family: the OAuth grant it belongs to (see `TokenRecord.family`); nil for none.
    /// - Parameter codeChallenge: a code's PKCE challenge (see `TokenRecord.codeChallenge`); nil for none.
    public func createToken(kind: TokenKind, userID: String?, clientID: String?, scope: String?, redirectURI: String?,
                            ttl: TimeInterval?, family: String?, codeChallenge: String?, at now: Date) async throws
        -> (token: String, record: TokenRecord) {
        let token = Secrets.newToken()
        let record = TokenRecord(kind: kind, userID: userID, clientID: clientID, scope: scope, redirectURI: redirectURI,
                                 expiresAt: ttl.map { Date(millisecondsSince1970: now.addingTimeInterval($0).millisecondsSince1970) },
                                 createdAt: Date(millisecondsSince1970: now.millisecondsSince1970), family: family,
                                 codeChallenge: codeChallenge)
        try await insertToken(hash: Secrets.sha256Hex(token), record: record, now: now)
        return (token, record)
    }

    /// What a token grants, or nil when it is unknown, revoked, spent, expired or of another kind.
    public func token(_ token: String, kind: TokenKind?, at now: Date) async throws -> TokenRecord? {
        guard let record = try await unspentToken(hash: Secrets.sha256Hex(token)) else { return nil }
        return record.counts(as: kind, at: now) ? record : nil
    }

    /// Looks a single-use token (an authorization code) up and deletes it in the same transaction,
    /// so two requests racing with one code cannot both succeed.
    public func consumeToken(_ token: String, kind: TokenKind, at now: Date) async throws -> TokenRecord? {
        guard let record = try await takeUnspentToken(hash: Secrets.sha256Hex(token)) else { return nil }
        return record.counts(as: kind, at: now) ? record : nil
    }

    /// Registers a client; returns it with its secret in clear (shown once; stored hashed).
    public func createClient(name: String, redirectURI: String?, ownerID: String?, at now: Date) async throws
        -> (client: OAuthClient, secret: String) {
        let name = name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { throw HealthError.invalidValue("the client name is empty: pass a name") }
        if name.count > 100 { throw HealthError.invalidValue("the client name is longer than 100 characters: choose a shorter one") }
        try TextRules.check(name, as: "the client name")
        if let redirectURI { try RedirectURIRules.check(redirectURI) }
        let client = OAuthClient(id: Secrets.newID(), name: name, redirectURI: redirectURI, ownerID: ownerID,
                                 createdAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        let secret = Secrets.newToken()
        try await insertClient(client, secretHash: Secrets.sha256Hex(secret))
        return (client, secret)
    }

    public func client(id: String) async throws -> OAuthClient? {
        try StoreRules.checkNoNUL(id, as: "client_id")
        return try await clientWithSecretHash(id: id)?.client
    }

    /// The client when `secret` is its secret (compared in constant time); nil otherwise.
    public func verifyClient(id: String, secret: String) async throws -> OAuthClient? {
        try StoreRules.checkNoNUL(id, as: "client_id")
        guard let (client, stored) = try await clientWithSecretHash(id: id),
              Secrets.constantTimeEqual(Array(stored.utf8), Array(Secrets.sha256Hex(secret).utf8)) else { return nil }
        return client
    }

    /// A read-only token that never expires, returned in clear this once (only its SHA-256 is kept).
    public func createPersonalToken(userID: String, label: String, at now: Date) async throws -> (id: String, token: String) {
        let label = try StoreRules.personalTokenLabel(label)
        let id = String(Secrets.newID().prefix(12))
        let token = Secrets.newToken()
        try await insertPersonalToken(id: id, hash: Secrets.sha256Hex(token), userID: userID, label: label, now: now)
        return (id, token)
    }
}
