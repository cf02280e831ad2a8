import Foundation
import GRDB
import HealthCore
import HealthModel

/// Adding an account, the one account write SQLite words its own way (with the id's bytes in `key`); the rest
/// of `AccountRows` is written once over statements (`AccountRows+Statements`).
extension LocalStore: AccountRows {
    public func insertUser(_ user: User, passwordHash: String) async throws {
        let ms = user.createdOn.millisecondsSince1970
        try await write { db in
            try UserNames.checkFree(user.name, clashingWith: try SQLiteSession(db: db).one(AccountStatements.nameClashing(with: user.name))?.text("name"))
            try db.execute(
                sql: """
                    INSERT INTO users (id, key, name, name_key, name_skeleton, full_name, email, password_hash, created_at, modified_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [user.id, StoredID(user.id), user.name, UserNames.key(user.name), UserNames.skeleton(user.name),
                            user.fullName, user.email, passwordHash, ms, user.modifiedOn.millisecondsSince1970])
            try db.execute(sql: "INSERT INTO profiles (user_id) VALUES (?)", arguments: [user.id])
        }
    }
}
