import Foundation
import HealthModel

/// Links apps push readings to (`hmon link add`), written once over an engine's statements: the secret is
/// returned once and kept as its SHA-256.
extension PushLinkStore where Self: StatementEngine {
    public func createPushLink(kind: PushLinkKind, userID: String, signingSecret: String?, at now: Date) async throws
        -> (id: String, secret: String) {
        let id = String(Secrets.newID().prefix(12))
        let secret = Secrets.newToken()
        try await writingStatements { db in
            guard try db.exists("SELECT 1 FROM users WHERE id = \(userID)") else { throw HealthError.unknownUser(userID) }
            try db.run("""
                INSERT INTO push_links (id, kind, hash, user_id, created_at, signing_secret)
                VALUES (\(id), \(kind.rawValue), \(Secrets.sha256Hex(secret)), \(userID), \(now.millisecondsSince1970), \(signingSecret))
                """)
        }
        return (id, secret)
    }

    public func pushLinks() async throws -> [PushLink] {
        try await fetch("""
            SELECT l.id, l.kind, l.created_at, l.last_used_at, u.name FROM push_links AS l JOIN users AS u ON u.id = l.user_id
            ORDER BY l.created_at, l.id\(.bytewiseOrder)
            """).compactMap { row in
            // A kind this hmon does not know (written by a newer one) is left out rather than misnamed.
            guard let kind = PushLinkKind(rawValue: try row.text("kind")) else { return nil }
            return PushLink(id: try row.text("id"), kind: kind, userName: try row.text("name"), createdAt: try row.date("created_at"),
                            lastUsedAt: try row.optionalDate("last_used_at"))
        }
    }

    public func revokePushLink(id: String) async throws -> Bool {
        try await writingStatements { db in try db.changes("DELETE FROM push_links WHERE id = \(id) RETURNING 1") > 0 }
    }

    public func revokePushLinks(kind: PushLinkKind, userID: String?) async throws -> Int {
        try await writingStatements { db in
            if let userID {
                return try db.changes("DELETE FROM push_links WHERE kind = \(kind.rawValue) AND user_id = \(userID) RETURNING 1")
            }
            return try db.changes("DELETE FROM push_links WHERE kind = \(kind.rawValue) RETURNING 1")
        }
    }

    public func pushLinkHolder(secret: String, kind: PushLinkKind, now: Date) async throws -> PushLinkHolder? {
        let hash = Secrets.sha256Hex(secret)
        return try await writingStatements { db in
            guard let row = try db.one("""
                UPDATE push_links SET last_used_at = \(now.millisecondsSince1970) WHERE hash = \(hash) AND kind = \(kind.rawValue)
                RETURNING id, user_id, signing_secret, source_user
                """) else { return nil }
            return PushLinkHolder(linkID: try row.text("id"), userID: try row.text("user_id"),
                                  signingSecret: try row.optionalText("signing_secret"),
                                  sourceUser: try row.optionalInteger("source_user").map { Int(clamping: $0) })
        }
    }

    public func followSourceUser(_ sourceUser: Int, linkID: String) async throws -> Int? {
        try await writingStatements { db in
            try db.one("""
                UPDATE push_links SET source_user = COALESCE(source_user, \(sourceUser)) WHERE id = \(linkID) RETURNING source_user
                """)?.optionalInteger("source_user").map { Int(clamping: $0) }
        }
    }

    public func adoptSigningSecret(_ signingSecret: String, linkID: String, secretHash: String) async throws -> Bool {
        try await writingStatements { db in
            try db.changes("""
                UPDATE push_links SET signing_secret = \(signingSecret)
                WHERE id = \(linkID) AND hash = \(secretHash) AND signing_secret IS NULL RETURNING 1
                """) > 0
        }
    }
}
