import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// `LocalStore+PushLinks` on PostgreSQL.
extension PostgresStore {
    public func createPushLink(kind: PushLinkKind, userID: String, signingSecret: String?, at now: Date) async throws -> (id: String, secret: String) {
        let id = String(Secrets.newID().prefix(12))
        let secret = Secrets.newToken()
        try await write { db in
            guard try await db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
            try await db.run("""
                INSERT INTO push_links (id, kind, hash, user_id, created_at, signing_secret)
                VALUES (\(id), \(kind.rawValue), \(Secrets.sha256Hex(secret)), \(userID), \(now.millisecondsSince1970), \(signingSecret))
                """)
        }
        return (id, secret)
    }

    public func pushLinks() async throws -> [PushLink] {
        try await read { db in
            try await db.all("""
                SELECT l.id, l.kind, l.created_at, l.last_used_at, u.name FROM push_links AS l JOIN users AS u ON u.id = l.user_id
                ORDER BY l.created_at, l.id COLLATE "C"
                """).compactMap { row in
                guard let kind = PushLinkKind(rawValue: try row.value("kind")) else { return nil }
                return PushLink(id: try row.value("id"), kind: kind, userName: try row.value("name"),
                                createdAt: Date(millisecondsSince1970: try row.value("created_at")),
                                lastUsedAt: try row.value("last_used_at", Int64?.self).map(Date.init(millisecondsSince1970:)))
            }
        }
    }

    public func revokePushLink(id: String) async throws -> Bool {
        try await write { db in try await db.count("DELETE FROM push_links WHERE id = \(id) RETURNING 1") > 0 }
    }

    public func revokePushLinks(kind: PushLinkKind, userID: String?) async throws -> Int {
        try await write { db in
            if let userID {
                return try await db.count("DELETE FROM push_links WHERE kind = \(kind.rawValue) AND user_id = \(userID) RETURNING 1")
            }
            return try await db.count("DELETE FROM push_links WHERE kind = \(kind.rawValue) RETURNING 1")
        }
    }

    public func pushLinkHolder(secret: String, kind: PushLinkKind, now: Date) async throws -> PushLinkHolder? {
        let hash = Secrets.sha256Hex(secret)
        return try await write { db in
            guard let row = try await db.one("""
                UPDATE push_links SET last_used_at = \(now.millisecondsSince1970) WHERE hash = \(hash) AND kind = \(kind.rawValue)
                RETURNING id, user_id, signing_secret, source_user
                """) else { return nil }
            return PushLinkHolder(linkID: try row.value("id", String.self), userID: try row.value("user_id", String.self),
                                  signingSecret: try row.value("signing_secret", String?.self),
                                  sourceUser: try row.value("source_user", Int64?.self).map { Int(clamping: $0) })
        }
    }

    public func followSourceUser(_ sourceUser: Int, linkID: String) async throws -> Int? {
        try await write { db in
            try await db.one("""
                UPDATE push_links SET source_user = COALESCE(source_user, \(Int64(sourceUser))) WHERE id = \(linkID) RETURNING source_user
                """)?.value("source_user", Int64?.self).map { Int(clamping: $0) }
        }
    }

    public func adoptSigningSecret(_ signingSecret: String, linkID: String, secretHash: String) async throws -> Bool {
        try await write { db in
            try await db.count("""
                UPDATE push_links SET signing_secret = \(signingSecret)
                WHERE id = \(linkID) AND hash = \(secretHash) AND signing_secret IS NULL RETURNING 1
                """) > 0
        }
    }
}
