import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// Tokens and OAuth clients: `LocalStore+Tokens` on PostgreSQL.
extension PostgresStore {
    public func createToken(kind: TokenKind, userID: String?, clientID: String?, scope: String?, redirectURI: String?,
                            ttl: TimeInterval?, family: String?, codeChallenge: String?, now: Date) async throws
        -> (token: String, record: TokenRecord) {
        let token = Secrets.newToken()
        let record = TokenRecord(kind: kind, userID: userID, clientID: clientID, scope: scope, redirectURI: redirectURI,
                                 expiresAt: ttl.map { Date(millisecondsSince1970: now.addingTimeInterval($0).millisecondsSince1970) },
                                 createdAt: Date(millisecondsSince1970: now.millisecondsSince1970), family: family,
                                 codeChallenge: codeChallenge)
        let ms = now.millisecondsSince1970
        try await write { db in
            try await db.run("DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= \(ms)")
            try await db.run("""
                INSERT INTO tokens (hash, user_id, kind, client_id, scope, redirect_uri, expires_at, created_at, family, code_challenge)
                VALUES (\(Secrets.sha256Hex(token)), \(userID), \(kind.rawValue), \(clientID), \(scope), \(redirectURI),
                        \(record.expiresAt?.millisecondsSince1970), \(record.createdAt.millisecondsSince1970), \(family),
                        \(codeChallenge))
                """)
        }
        return (token, record)
    }

    public func token(_ token: String, kind: TokenKind?, now: Date) async throws -> TokenRecord? {
        let hash = Secrets.sha256Hex(token)
        let record = try await read { db in
            try await db.one("SELECT * FROM tokens WHERE hash = \(hash) AND spent_at IS NULL").map(Self.token(row:))
        }
        guard let record, kind == nil || record.kind == kind else { return nil }
        if let expiry = record.expiresAt, expiry <= now { return nil }
        return record
    }

    public func consumeToken(_ token: String, kind: TokenKind, now: Date) async throws -> TokenRecord? {
        let hash = Secrets.sha256Hex(token)
        let record = try await write { db -> TokenRecord? in
            try await db.one("DELETE FROM tokens WHERE hash = \(hash) AND spent_at IS NULL RETURNING *").map(Self.token(row:))
        }
        guard let record, record.kind == kind else { return nil }
        if let expiry = record.expiresAt, expiry <= now { return nil }
        return record
    }

    public func redeemToken(_ token: String, kind: TokenKind, now: Date) async throws -> Redemption {
        let hash = Secrets.sha256Hex(token)
        return try await write { db -> Redemption in
            // FOR UPDATE: a second instance redeeming the same code waits here, then sees it spent.
            guard let row = try await db.one("SELECT * FROM tokens WHERE hash = \(hash) FOR UPDATE") else { return .invalid }
            let record = try Self.token(row: row)
            guard record.kind == kind else { return .invalid }
            if let expiry = record.expiresAt, expiry <= now { return .invalid }
            guard try row.value("spent_at", Int64?.self) == nil else {
                guard let family = record.family else {
                    try await db.run("DELETE FROM tokens WHERE hash = \(hash)")
                    return .replayed(revoked: 0)
                }
                let live = try await db.one("""
                    SELECT count(*) AS n FROM tokens WHERE family = \(family) AND spent_at IS NULL
                    """)?.value("n", Int.self) ?? 0
                try await db.run("DELETE FROM tokens WHERE family = \(family)")
                return .replayed(revoked: live)
            }
            try await db.run("UPDATE tokens SET spent_at = \(now.millisecondsSince1970) WHERE hash = \(hash)")
            return .redeemed(record)
        }
    }

    @discardableResult
    public func revokeToken(_ token: String) async throws -> Bool {
        let hash = Secrets.sha256Hex(token)
        return try await write { db in try await db.count("DELETE FROM tokens WHERE hash = \(hash) RETURNING 1") > 0 }
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
        try await write { db in try await db.run("DELETE FROM tokens WHERE family = \(family) AND kind = \(kind.rawValue)") }
    }

    public func createClient(name: String, redirectURI: String?, ownerID: String?, now: Date) async throws
        -> (client: OAuthClient, secret: String) {
        let name = name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { throw HealthError.invalidValue("the client name is empty: pass a name") }
        if name.count > 100 { throw HealthError.invalidValue("the client name is longer than 100 characters: choose a shorter one") }
        try TextRules.check(name, as: "the client name")
        if let redirectURI { try RedirectURIRules.check(redirectURI) }
        let client = OAuthClient(id: Secrets.newID(), name: name, redirectURI: redirectURI, ownerID: ownerID,
                                 createdAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        let secret = Secrets.newToken()
        try await write { db in
            if let ownerID, try await !db.exists("SELECT 1 FROM users WHERE id = \(ownerID)") {
                throw HealthError.invalidValue("the client's owner \(ownerID) is not an account of this store: pick an existing user")
            }
            try await db.run("""
                INSERT INTO oauth_clients (id, secret_hash, name, redirect_uri, owner_id, created_at)
                VALUES (\(client.id), \(Secrets.sha256Hex(secret)), \(client.name), \(client.redirectURI), \(client.ownerID),
                        \(now.millisecondsSince1970))
                """)
        }
        return (client, secret)
    }

    public func client(id: String) async throws -> OAuthClient? {
        try StoreRules.checkNoNUL(id, as: "client_id")
        return try await read { db in try await db.one("SELECT * FROM oauth_clients WHERE id = \(id)").map(Self.client(row:)) }
    }

    public func verifyClient(id: String, secret: String) async throws -> OAuthClient? {
        try StoreRules.checkNoNUL(id, as: "client_id")
        let found = try await read { db -> (OAuthClient, String)? in
            guard let row = try await db.one("SELECT * FROM oauth_clients WHERE id = \(id)") else { return nil }
            return (try Self.client(row: row), try row.value("secret_hash", String.self))
        }
        guard let (client, stored) = found,
              Secrets.constantTimeEqual(Array(stored.utf8), Array(Secrets.sha256Hex(secret).utf8)) else { return nil }
        return client
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
