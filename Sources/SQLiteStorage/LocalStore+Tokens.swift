import Foundation
import GRDB
import HealthCore
import HealthModel

/// Tokens (sessions, OAuth2 access/refresh tokens and codes) and OAuth2 clients: their rows, and what
/// `TokenStore+Rows` (HealthCore) does not do for both engines.
extension LocalStore: TokenRows {
    public func insertToken(hash: String, record: TokenRecord, now: Date) async throws {
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
                arguments: [hash, record.userID, record.kind.rawValue, record.clientID, record.scope, record.redirectURI,
                            record.expiresAt?.millisecondsSince1970, record.createdAt.millisecondsSince1970, record.family,
                            record.codeChallenge])
        }
    }

    public func unspentToken(hash: String) async throws -> TokenRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM tokens WHERE hash = ? AND spent_at IS NULL", arguments: [hash])
                .map(TokenRecord.init(row:))
        }
    }

    public func takeUnspentToken(hash: String) async throws -> TokenRecord? {
        try await write { db in
            try Row.fetchOne(db, sql: "DELETE FROM tokens WHERE hash = ? AND spent_at IS NULL RETURNING *", arguments: [hash])
                .map(TokenRecord.init(row:))
        }
    }

    /// Spends a single-use token of a family and returns what it granted, in one transaction, so two
    /// requests racing with it cannot both succeed; what it does is `TokenRecord.redemption`'s to say.
    /// The spent token is kept until it expires, so that presenting it again is seen as a replay.
    public func redeemToken(_ token: String, kind: TokenKind, at now: Date) async throws -> Redemption {
        let hash = Secrets.sha256Hex(token)
        return try await write { db -> Redemption in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM tokens WHERE hash = ?", arguments: [hash]) else { return .invalid }
            let record = TokenRecord(row: row)
            switch record.redemption(presentedAs: kind, spent: (row["spent_at"] as Int64?) != nil, at: now) {
            case .refuse:
                return .invalid
            case .spend:
                try db.execute(sql: "UPDATE tokens SET spent_at = ? WHERE hash = ?", arguments: [now.millisecondsSince1970, hash])
                return .redeemed(record)
            case .dropReplayed:
                try db.execute(sql: "DELETE FROM tokens WHERE hash = ?", arguments: [hash])
                return .replayed(revoked: 0)
            case .revokeFamily(let family):
                let live = try Int.fetchOne(db, sql: "SELECT count(*) FROM tokens WHERE family = ? AND spent_at IS NULL",
                                            arguments: [family]) ?? 0
                try db.execute(sql: "DELETE FROM tokens WHERE family = ?", arguments: [family])
                return .replayed(revoked: live)
            }
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

    public func insertClient(_ client: OAuthClient, secretHash: String) async throws {
        try await write { db in
            if let ownerID = client.ownerID,
               try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [ownerID]) != true {
                throw HealthError.invalidValue("the client's owner \(ownerID) is not an account of this store: pick an existing user")
            }
            try db.execute(sql: "INSERT INTO oauth_clients (id, secret_hash, name, redirect_uri, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [client.id, secretHash, client.name, client.redirectURI, client.ownerID,
                                       client.createdAt.millisecondsSince1970])
        }
    }

    public func clientWithSecretHash(id: String) async throws -> (client: OAuthClient, secretHash: String)? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM oauth_clients WHERE id = ?", arguments: [id])
                .map { (OAuthClient(row: $0), $0["secret_hash"]) }
        }
    }

    // MARK: Personal tokens

    public func insertPersonalToken(id: String, hash: String, userID: String, label: String, now: Date) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO personal_tokens (id, hash, user_id, label, scope, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [id, hash, userID, label, ExistScope.allRead, now.millisecondsSince1970])
        }
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
