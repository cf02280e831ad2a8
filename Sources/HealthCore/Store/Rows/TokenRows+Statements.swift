import Foundation
import HealthModel

/// Tokens, OAuth clients and personal tokens, written once over an engine's statements.
extension TokenRows where Self: StatementEngine {
    public func insertToken(hash: String, record: TokenRecord, now: Date) async throws {
        try await writingStatements { db in
            // Expired tokens are useless: sweep them while the write lock is held anyway.
            try db.run("DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= \(now.millisecondsSince1970)")
            try db.run("""
                INSERT INTO tokens (hash, user_id, kind, client_id, scope, redirect_uri, expires_at, created_at, family, code_challenge)
                VALUES (\(hash), \(record.userID), \(record.kind.rawValue), \(record.clientID), \(record.scope), \(record.redirectURI),
                        \(record.expiresAt?.millisecondsSince1970), \(record.createdAt.millisecondsSince1970), \(record.family),
                        \(record.codeChallenge))
                """)
        }
    }

    public func unspentToken(hash: String) async throws -> TokenRecord? {
        try await fetchOne("SELECT * FROM tokens WHERE hash = \(hash) AND spent_at IS NULL").map(TokenRecord.init(row:))
    }

    public func takeUnspentToken(hash: String) async throws -> TokenRecord? {
        try await writingStatements { db in
            try db.one("DELETE FROM tokens WHERE hash = \(hash) AND spent_at IS NULL RETURNING *").map(TokenRecord.init(row:))
        }
    }

    public func insertClient(_ client: OAuthClient, secretHash: String) async throws {
        try await writingStatements { db in
            if let ownerID = client.ownerID, try !db.exists("SELECT 1 FROM users WHERE id = \(ownerID)") {
                throw HealthError.invalidValue("the client's owner \(ownerID) is not an account of this store: pick an existing user")
            }
            try db.run("""
                INSERT INTO oauth_clients (id, secret_hash, name, redirect_uri, owner_id, created_at)
                VALUES (\(client.id), \(secretHash), \(client.name), \(client.redirectURI), \(client.ownerID),
                        \(client.createdAt.millisecondsSince1970))
                """)
        }
    }

    public func clientWithSecretHash(id: String) async throws -> (client: OAuthClient, secretHash: String)? {
        guard let row = try await fetchOne("SELECT * FROM oauth_clients WHERE id = \(id)") else { return nil }
        return (try OAuthClient(row: row), try row.text("secret_hash"))
    }

    public func insertPersonalToken(id: String, hash: String, userID: String, label: String, now: Date) async throws {
        try await writingStatements { db in
            try db.run("""
                INSERT INTO personal_tokens (id, hash, user_id, label, scope, created_at)
                VALUES (\(id), \(hash), \(userID), \(label), \(ExistScope.allRead), \(now.millisecondsSince1970))
                """)
        }
    }
}

extension TokenStore where Self: StatementEngine {
    /// Spends a single-use token of a family and returns what it granted, in one transaction, so two
    /// requests racing with it cannot both succeed (PostgreSQL's second instance waits on the row lock,
    /// then sees it spent); what it does is `TokenRecord.redemption`'s to say. The spent token is kept
    /// until it expires, so that presenting it again is seen as a replay.
    public func redeemToken(_ token: String, kind: TokenKind, at now: Date) async throws -> Redemption {
        let hash = Secrets.sha256Hex(token)
        return try await writingStatements { db -> Redemption in
            guard let row = try db.one("SELECT * FROM tokens WHERE hash = \(hash)\(.lockingReadRows)") else { return .invalid }
            let record = try TokenRecord(row: row)
            switch record.redemption(presentedAs: kind, spent: try row.optionalInteger("spent_at") != nil, at: now) {
            case .refuse:
                return .invalid
            case .spend:
                try db.run("UPDATE tokens SET spent_at = \(now.millisecondsSince1970) WHERE hash = \(hash)")
                return .redeemed(record)
            case .dropReplayed:
                try db.run("DELETE FROM tokens WHERE hash = \(hash)")
                return .replayed(revoked: 0)
            case .revokeFamily(let family):
                let live = try db.changes("DELETE FROM tokens WHERE family = \(family) AND spent_at IS NULL RETURNING 1")
                try db.run("DELETE FROM tokens WHERE family = \(family)")
                return .replayed(revoked: live)
            }
        }
    }

    /// Revokes a token; returns whether it existed.
    @discardableResult
    public func revokeToken(_ token: String) async throws -> Bool {
        let hash = Secrets.sha256Hex(token)
        return try await writingStatements { db in try db.changes("DELETE FROM tokens WHERE hash = \(hash) RETURNING 1") > 0 }
    }

    /// Revokes every token of a user (all kinds, or one kind).
    public func revokeTokens(userID: String, kind: TokenKind?) async throws {
        try await writingStatements { db in
            if let kind {
                try db.run("DELETE FROM tokens WHERE user_id = \(userID) AND kind = \(kind.rawValue)")
            } else {
                try db.run("DELETE FROM tokens WHERE user_id = \(userID)")
            }
        }
    }

    public func revokeTokens(family: String, kind: TokenKind) async throws {
        try await writingStatements { db in try db.run("DELETE FROM tokens WHERE family = \(family) AND kind = \(kind.rawValue)") }
    }

    /// What a personal token grants (kind `.access`, no client, no expiry), or nil.
    public func personalToken(_ token: String) async throws -> TokenRecord? {
        let hash = Secrets.sha256Hex(token)
        guard let row = try await fetchOne("SELECT * FROM personal_tokens WHERE hash = \(hash)") else { return nil }
        return TokenRecord(kind: .access, userID: try row.text("user_id"), clientID: nil, scope: try row.optionalText("scope"),
                           expiresAt: nil, createdAt: try row.date("created_at"))
    }

    public func personalTokens() async throws -> [PersonalToken] {
        try await fetch("""
            SELECT p.id, p.label, p.created_at, u.name FROM personal_tokens AS p JOIN users AS u ON u.id = p.user_id
            ORDER BY p.created_at, p.id\(.bytewiseOrder)
            """).map { row in
            PersonalToken(id: try row.text("id"), userName: try row.text("name"), label: try row.text("label"),
                          createdAt: try row.date("created_at"))
        }
    }

    /// Revokes a personal token by its id; false when there is none.
    public func revokePersonalToken(id: String) async throws -> Bool {
        try await writingStatements { db in try db.changes("DELETE FROM personal_tokens WHERE id = \(id) RETURNING 1") > 0 }
    }
}

extension TokenRecord {
    init(row: StoreRow) throws {
        self.init(kind: TokenKind(rawValue: try row.text("kind")) ?? .access, userID: try row.optionalText("user_id"),
                  clientID: try row.optionalText("client_id"), scope: try row.optionalText("scope"),
                  redirectURI: try row.optionalText("redirect_uri"), expiresAt: try row.optionalDate("expires_at"),
                  createdAt: try row.date("created_at"), family: try row.optionalText("family"),
                  codeChallenge: try row.optionalText("code_challenge"))
    }
}

extension OAuthClient {
    init(row: StoreRow) throws {
        self.init(id: try row.text("id"), name: try row.text("name"), redirectURI: try row.optionalText("redirect_uri"),
                  ownerID: try row.optionalText("owner_id"), createdAt: try row.date("created_at"))
    }
}
