import Foundation
import GRDB
import HealthCore
import HealthModel

/// Tokens (sessions, OAuth2 access/refresh tokens and codes) and OAuth2 clients.
extension LocalStore {
    /// Creates a token (256 random bits) and returns it in clear — the only time it exists in clear.
    /// - Parameter ttl: seconds until it expires; nil for a token that lives until revoked.
    /// - Parameter family: the OAuth grant it belongs to (see `TokenRecord.family`); nil for none.
    /// - Parameter codeChallenge: a code's PKCE challenge (see `TokenRecord.codeChallenge`); nil for none.
    public func createToken(kind: TokenKind, userID: String?, clientID: String? = nil, scope: String? = nil,
                            redirectURI: String? = nil, ttl: TimeInterval?, family: String? = nil,
                            codeChallenge: String? = nil, now: Date = Date()) async throws -> (token: String, record: TokenRecord) {
        let token = Secrets.newToken()
        let record = TokenRecord(kind: kind, userID: userID, clientID: clientID, scope: scope, redirectURI: redirectURI,
                                 expiresAt: ttl.map { Date(millisecondsSince1970: now.addingTimeInterval($0).millisecondsSince1970) },
                                 createdAt: Date(millisecondsSince1970: now.millisecondsSince1970), family: family,
                                 codeChallenge: codeChallenge)
        try await write { db in
            // Expired tokens are useless: sweep them while we hold the write lock anyway.
            try db.execute(sql: "DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= ?",
                           arguments: [now.millisecondsSince1970])
            try db.execute(
                sql: """
                    INSERT INTO tokens (hash, user_id, kind, client_id, scope, redirect_uri, expires_at, created_at, family,
                                        code_challenge)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [Secrets.sha256Hex(token), userID, kind.rawValue, clientID, scope, redirectURI,
                            record.expiresAt?.millisecondsSince1970, record.createdAt.millisecondsSince1970, family,
                            codeChallenge])
        }
        return (token, record)
    }

    /// What a token grants, or nil when it is unknown, revoked, expired or of another kind.
    public func token(_ token: String, kind: TokenKind? = nil, now: Date = Date()) async throws -> TokenRecord? {
        let hash = Secrets.sha256Hex(token)
        let record = try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM tokens WHERE hash = ? AND spent_at IS NULL", arguments: [hash])
                .map(TokenRecord.init(row:))
        }
        guard let record, kind == nil || record.kind == kind else { return nil }
        if let expiry = record.expiresAt, expiry <= now { return nil }
        return record
    }

    /// Looks a single-use token (an authorization code) up and deletes it in the same transaction,
    /// so two requests racing with one code cannot both succeed.
    public func consumeToken(_ token: String, kind: TokenKind, now: Date = Date()) async throws -> TokenRecord? {
        let hash = Secrets.sha256Hex(token)
        let record = try await write { db -> TokenRecord? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM tokens WHERE hash = ? AND spent_at IS NULL",
                                             arguments: [hash]) else { return nil }
            try db.execute(sql: "DELETE FROM tokens WHERE hash = ?", arguments: [hash])
            return TokenRecord(row: row)
        }
        guard let record, record.kind == kind else { return nil }
        if let expiry = record.expiresAt, expiry <= now { return nil }
        return record
    }

    /// Spends a single-use token of a family (an authorization code, a rotating refresh token) and returns
    /// what it granted — in one transaction, so two requests racing with it cannot both succeed. The spent
    /// token is kept until it expires: presented again, it is a replay (a stolen code or refresh token used
    /// by the thief, or by its owner after the thief), and every token of its family is revoked, those
    /// already issued from it included (RFC 6749 §4.1.2, OAuth 2.0 Security BCP §4.14).
    public func redeemToken(_ token: String, kind: TokenKind, now: Date = Date()) async throws -> Redemption {
        let hash = Secrets.sha256Hex(token)
        return try await write { db -> Redemption in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM tokens WHERE hash = ?", arguments: [hash]) else { return .invalid }
            let record = TokenRecord(row: row)
            guard record.kind == kind else { return .invalid }
            if let expiry = record.expiresAt, expiry <= now { return .invalid }
            guard (row["spent_at"] as Int64?) == nil else {
                guard let family = record.family else {
                    try db.execute(sql: "DELETE FROM tokens WHERE hash = ?", arguments: [hash])
                    return .replayed(revoked: 0)
                }
                let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM tokens WHERE family = ? AND spent_at IS NULL",
                                            arguments: [family]) ?? 0
                try db.execute(sql: "DELETE FROM tokens WHERE family = ?", arguments: [family])
                return .replayed(revoked: live)
            }
            try db.execute(sql: "UPDATE tokens SET spent_at = ? WHERE hash = ?", arguments: [now.millisecondsSince1970, hash])
            return .redeemed(record)
        }
    }

    /// Revokes a token; returns whether it existed.
    @discardableResult
    public func revokeToken(_ token: String) async throws -> Bool {
        let hash = Secrets.sha256Hex(token)
        return try await write { db in
            try db.execute(sql: "DELETE FROM tokens WHERE hash = ?", arguments: [hash])
            return db.changesCount > 0
        }
    }

    /// Revokes every token of a user (all kinds, or one kind).
    public func revokeTokens(userID: String, kind: TokenKind? = nil) async throws {
        try await write { db in
            if let kind {
                try db.execute(sql: "DELETE FROM tokens WHERE user_id = ? AND kind = ?", arguments: [userID, kind.rawValue])
            } else {
                try db.execute(sql: "DELETE FROM tokens WHERE user_id = ?", arguments: [userID])
            }
        }
    }

    public func revokeTokens(family: String, kind: TokenKind) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM tokens WHERE family = ? AND kind = ?", arguments: [family, kind.rawValue])
        }
    }

    // MARK: OAuth2 clients

    /// Registers a client; returns it with its secret in clear (shown once; stored hashed).
    public func createClient(name: String, redirectURI: String?, ownerID: String? = nil,
                             now: Date = Date()) async throws -> (client: OAuthClient, secret: String) {
        let name = name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { throw HealthError.invalidValue("the client name is empty: pass a name") }
        if name.count > 100 { throw HealthError.invalidValue("the client name is longer than 100 characters: choose a shorter one") }
        try TextRules.check(name, as: "the client name")
        if let redirectURI { try RedirectURIRules.check(redirectURI) }
        let client = OAuthClient(id: Secrets.newID(), name: name, redirectURI: redirectURI, ownerID: ownerID,
                                 createdAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        let secret = Secrets.newToken()
        try await write { db in
            if let ownerID, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [ownerID]) != true {
                throw HealthError.invalidValue("the client's owner \(ownerID) is not an account of this store: pick an existing user")
            }
            try db.execute(sql: "INSERT INTO oauth_clients (id, secret_hash, name, redirect_uri, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [client.id, Secrets.sha256Hex(secret), client.name, client.redirectURI, client.ownerID,
                                       now.millisecondsSince1970])
        }
        return (client, secret)
    }

    public func client(id: String) async throws -> OAuthClient? {
        try StoreRules.checkNoNUL(id, as: "client_id")
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM oauth_clients WHERE id = ?", arguments: [id]).map(OAuthClient.init(row:))
        }
    }

    /// The client when `secret` is its secret (compared in constant time); nil otherwise.
    public func verifyClient(id: String, secret: String) async throws -> OAuthClient? {
        try StoreRules.checkNoNUL(id, as: "client_id")
        let found = try await read { db -> (OAuthClient, String)? in
            try Row.fetchOne(db, sql: "SELECT * FROM oauth_clients WHERE id = ?", arguments: [id])
                .map { (OAuthClient(row: $0), $0["secret_hash"]) }
        }
        guard let (client, stored) = found,
              Secrets.constantTimeEqual(Array(stored.utf8), Array(Secrets.sha256Hex(secret).utf8)) else { return nil }
        return client
    }
}

extension TokenRecord {
    init(row: Row) {
        self.init(kind: TokenKind(rawValue: row["kind"]) ?? .access, userID: row["user_id"], clientID: row["client_id"],
                  scope: row["scope"], redirectURI: row["redirect_uri"],
                  expiresAt: (row["expires_at"] as Int64?).map(Date.init(millisecondsSince1970:)),
                  createdAt: Date(millisecondsSince1970: row["created_at"]), family: row["family"],
                  codeChallenge: row["code_challenge"])
    }
}

extension OAuthClient {
    init(row: Row) {
        self.init(id: row["id"], name: row["name"], redirectURI: row["redirect_uri"], ownerID: row["owner_id"],
                  createdAt: Date(millisecondsSince1970: row["created_at"]))
    }
}
