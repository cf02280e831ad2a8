import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Tokens and OAuth clients' rows on PostgreSQL: `LocalStore+Tokens` (their rules: `TokenStore+Rows`, HealthCore).
extension PostgresStore: TokenRows {
    public func insertToken(hash: String, record: TokenRecord, now: Date) async throws {
        try await write { db in
            try await db.run("DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= \(now.millisecondsSince1970)")
            try await db.run("""
                INSERT INTO tokens (hash, user_id, kind, client_id, scope, redirect_uri, expires_at, created_at, family, code_challenge)
                VALUES (\(hash), \(record.userID), \(record.kind.rawValue), \(record.clientID), \(record.scope), \(record.redirectURI),
                        \(record.expiresAt?.millisecondsSince1970), \(record.createdAt.millisecondsSince1970), \(record.family),
                        \(record.codeChallenge))
                """)
        }
    }

    public func unspentToken(hash: String) async throws -> TokenRecord? {
        try await read { db in
            try await db.one("SELECT * FROM tokens WHERE hash = \(hash) AND spent_at IS NULL").map(Self.token(row:))
        }
    }

    public func takeUnspentToken(hash: String) async throws -> TokenRecord? {
        try await write { db in
            try await db.one("DELETE FROM tokens WHERE hash = \(hash) AND spent_at IS NULL RETURNING *").map(Self.token(row:))
        }
    }

    public func redeemToken(_ token: String, kind: TokenKind, at now: Date) async throws -> Redemption {
        let hash = Secrets.sha256Hex(token)
        return try await write { db -> Redemption in
            // FOR UPDATE: a second instance redeeming the same code waits here, then sees it spent.
            guard let row = try await db.one("SELECT * FROM tokens WHERE hash = \(hash) FOR UPDATE") else { return .invalid }
            let record = try Self.token(row: row)
            switch record.redemption(presentedAs: kind, spent: try row.value("spent_at", Int64?.self) != nil, at: now) {
            case .refuse:
                return .invalid
            case .spend:
                try await db.run("UPDATE tokens SET spent_at = \(now.millisecondsSince1970) WHERE hash = \(hash)")
                return .redeemed(record)
            case .dropReplayed:
                try await db.run("DELETE FROM tokens WHERE hash = \(hash)")
                return .replayed(revoked: 0)
            case .revokeFamily(let family):
                let live = try await db.one("""
                    SELECT count(*) AS n FROM tokens WHERE family = \(family) AND spent_at IS NULL
                    """)?.value("n", Int.self) ?? 0
                try await db.run("DELETE FROM tokens WHERE family = \(family)")
                return .replayed(revoked: live)
            }
        }
    }

    @discardableResult
    public func revokeToken(_ token: String) async throws -> Bool {
        let hash = Secrets.sha256Hex(token)
        return try await write { db in return try await db.count("DELETE FROM tokens WHERE hash = \(hash) RETURNING 1") > 0 }
    }

    public func revokeTokens(userID: String, kind: TokenKind?) async throws {
        try await write { db in
            if let kind {
                try await db.run("DELETE FROM tokens WHERE user_id = \(userID) AND kind = \(kind.rawValue)")
            } else {
                try await db.run("DELETE FROM tokens WHERE user_id = \(userID)")
            }
        }
    }

    public func revokeTokens(family: String, kind: TokenKind) async throws {
        try await write { db in return try await db.run("DELETE FROM tokens WHERE family = \(family) AND kind = \(kind.rawValue)") }
    }

    public func insertClient(_ client: OAuthClient, secretHash: String) async throws {
        try await write { db in
            if let ownerID = client.ownerID, try await !db.exists("SELECT 1 FROM users WHERE id = \(ownerID)") {
                throw HealthError.invalidValue("the client's owner \(ownerID) is not an account of this store: pick an existing user")
            }
            try await db.run("""
                INSERT INTO oauth_clients (id, secret_hash, name, redirect_uri, owner_id, created_at)
                VALUES (\(client.id), \(secretHash), \(client.name), \(client.redirectURI), \(client.ownerID),
                        \(client.createdAt.millisecondsSince1970))
                """)
        }
    }

    public func clientWithSecretHash(id: String) async throws -> (client: OAuthClient, secretHash: String)? {
        try await read { db -> (client: OAuthClient, secretHash: String)? in
            guard let row = try await db.one("SELECT * FROM oauth_clients WHERE id = \(id)") else { return nil }
            return (try Self.client(row: row), try row.value("secret_hash", String.self))
        }
    }

    public func insertPersonalToken(id: String, hash: String, userID: String, label: String, now: Date) async throws {
        try await write { db in
            try await db.run("""
                INSERT INTO personal_tokens (id, hash, user_id, label, scope, created_at)
                VALUES (\(id), \(hash), \(userID), \(label), \(ExistScope.allRead), \(now.millisecondsSince1970))
                """)
        }
    }

    // MARK: Rows

    static func token(row: PostgresRandomAccessRow) throws -> TokenRecord {
        TokenRecord(kind: TokenKind(rawValue: try row.value("kind")) ?? .access, userID: try row.value("user_id"),
                    clientID: try row.value("client_id"), scope: try row.value("scope"), redirectURI: try row.value("redirect_uri"),
                    expiresAt: try row.value("expires_at", Int64?.self).map(Date.init(millisecondsSince1970:)),
                    createdAt: Date(millisecondsSince1970: try row.value("created_at")), family: try row.value("family"),
                    codeChallenge: try row.value("code_challenge"))
    }

    static func client(row: PostgresRandomAccessRow) throws -> OAuthClient {
        OAuthClient(id: try row.value("id"), name: try row.value("name"), redirectURI: try row.value("redirect_uri"),
                    ownerID: try row.value("owner_id"), createdAt: Date(millisecondsSince1970: try row.value("created_at")))
    }
}
