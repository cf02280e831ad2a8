import Foundation
import GRDB
import HealthCore
import HealthModel

/// Links apps push readings to (`hmon link add`): the secret is returned once and kept as its SHA-256.
extension LocalStore {
    public func createPushLink(kind: PushLinkKind, userID: String, signingSecret: String?, at now: Date) async throws -> (id: String, secret: String) {
        let id = String(Secrets.newID().prefix(12))
        let secret = Secrets.newToken()
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [userID]) == true else {
                throw HealthError.unknownUser(userID)
            }
            try db.execute(sql: "INSERT INTO push_links (id, kind, hash, user_id, created_at, signing_secret) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [id, kind.rawValue, Secrets.sha256Hex(secret), userID, now.millisecondsSince1970, signingSecret])
        }
        return (id, secret)
    }

    public func pushLinks() async throws -> [PushLink] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT l.id, l.kind, l.created_at, l.last_used_at, u.name FROM push_links AS l JOIN users AS u ON u.id = l.user_id
                ORDER BY l.created_at, l.id
                """).compactMap { row in
                // A kind this hmon does not know (written by a newer one) is left out rather than misnamed.
                PushLinkKind(rawValue: row["kind"]).map { kind in
                    PushLink(id: row["id"], kind: kind, userName: row["name"], createdAt: Date(millisecondsSince1970: row["created_at"]),
                             lastUsedAt: (row["last_used_at"] as Int64?).map(Date.init(millisecondsSince1970:)))
                }
            }
        }
    }

    public func revokePushLink(id: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_links WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func revokePushLinks(kind: PushLinkKind, userID: String?) async throws -> Int {
        try await write { db in
            if let userID {
                try db.execute(sql: "DELETE FROM push_links WHERE kind = ? AND user_id = ?", arguments: [kind.rawValue, userID])
            } else {
                try db.execute(sql: "DELETE FROM push_links WHERE kind = ?", arguments: [kind.rawValue])
            }
            return db.changesCount
        }
    }

    public func pushLinkHolder(secret: String, kind: PushLinkKind, now: Date) async throws -> PushLinkHolder? {
        let hash = Secrets.sha256Hex(secret)
        return try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, user_id, signing_secret, source_user FROM push_links WHERE hash = ? AND kind = ?",
                                             arguments: [hash, kind.rawValue]) else { return nil }
            try db.execute(sql: "UPDATE push_links SET last_used_at = ? WHERE hash = ?", arguments: [now.millisecondsSince1970, hash])
            return PushLinkHolder(linkID: row["id"], userID: row["user_id"], signingSecret: row["signing_secret"], sourceUser: row["source_user"])
        }
    }

    public func followSourceUser(_ sourceUser: Int, linkID: String) async throws -> Int? {
        try await write { db in
            try db.execute(sql: "UPDATE push_links SET source_user = ? WHERE id = ? AND source_user IS NULL", arguments: [sourceUser, linkID])
            return try Int.fetchOne(db, sql: "SELECT source_user FROM push_links WHERE id = ?", arguments: [linkID])
        }
    }

    public func adoptSigningSecret(_ signingSecret: String, linkID: String, secretHash: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE push_links SET signing_secret = ? WHERE id = ? AND hash = ? AND signing_secret IS NULL",
                           arguments: [signingSecret, linkID, secretHash])
            return db.changesCount > 0
        }
    }
}
