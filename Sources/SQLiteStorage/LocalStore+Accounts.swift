import Foundation
import GRDB
import HealthCore
import HealthModel

/// Accounts and profiles: the reads here, and the rows `AccountStore+Rows` (HealthCore) checks and writes.
extension LocalStore: AccountRows {
    public func user(id: String) async throws -> User? {
        try await read { db in try Self.user(id: id, in: db) }
    }

    /// Every account, oldest first.
    public func users() async throws -> [User] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY created_at, name").map(User.init(row:)) }
    }

    public func hasUsers() async throws -> Bool {
        try await read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users)") ?? false }
    }

    public func profile(userID: String) async throws -> Profile {
        try await read { db in try Self.profile(userID: userID, in: db) }
    }

    // MARK: Account rows

    public func nameClashing(with name: String) async throws -> String? {
        try await read { db in try Self.nameClashing(with: name, in: db) }
    }

    public func insertUser(_ user: User, passwordHash: String) async throws {
        let ms = user.createdOn.millisecondsSince1970
        try await write { db in
            try UserNames.checkFree(user.name, clashingWith: try Self.nameClashing(with: user.name, in: db))
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

    public func userWithPasswordHash(named name: String) async throws -> (user: User, passwordHash: String)? {
        try await read { db in try Self.userRow(named: name, in: db).map { (User(row: $0), $0["password_hash"]) } }
    }

    public func replacePasswordHash(_ hash: String, userID: String, now: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ?, modified_at = ? WHERE id = ?",
                           arguments: [hash, now.millisecondsSince1970, userID])
            let changed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM tokens WHERE user_id = ?", arguments: [userID])
            return changed
        }
    }

    public func deleteUserRow(id: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func replaceProfile(_ profile: Profile, userID: String, now: Date) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE profiles SET birth_date = ?, sex = ?, height_cm = ?, lean_mass_kg = ?,
                        mass_unit = ?, energy_unit = ?, bmr_formula = ?, goal_kg = ?, sleep_need_minutes = ?
                    WHERE user_id = ?
                    """,
                arguments: [profile.birthDate?.description, profile.sex?.rawValue, profile.heightCm, profile.leanMassKg,
                            profile.massUnit.rawValue, profile.energyUnit.rawValue, profile.bmrFormula.rawValue,
                            profile.goalKg, profile.sleepNeedMinutes, userID])
            let changed = db.changesCount > 0
            try db.execute(sql: "UPDATE users SET modified_at = ? WHERE id = ?", arguments: [now.millisecondsSince1970, userID])
            return changed
        }
    }
}

extension LocalStore {
    // MARK: Inside a transaction

    /// The account named `name` after `UserNames.key`; of two that fold together (stores from before
    /// the rule), the one whose name is exactly `name`, else the oldest.
    static func userRow(named name: String, in db: Database) throws -> Row? {
        try Row.fetchOne(db, sql: "SELECT * FROM users WHERE name_key = ? ORDER BY name = ? DESC, created_at LIMIT 1",
                         arguments: [UserNames.key(name), name])
    }

    /// See `AccountRows.nameClashing`.
    static func nameClashing(with name: String, in db: Database) throws -> String? {
        let key = UserNames.key(name)
        return try String.fetchOne(db, sql: """
            SELECT name FROM users WHERE name_key = ? OR name_skeleton = ? ORDER BY name_key = ? DESC LIMIT 1
            """, arguments: [key, UserNames.skeleton(name), key])
    }

    static func user(id: String, in db: Database) throws -> User? {
        try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]).map(User.init(row:))
    }

    /// A user's profile; `.unknownUser` when there is no such user.
    static func profile(userID: String, in db: Database) throws -> Profile {
        guard let profile = try Row.fetchOne(db, sql: "SELECT * FROM profiles WHERE user_id = ?", arguments: [userID])
            .map(Profile.init(row:))
        else { throw HealthError.unknownUser(userID) }
        return profile
    }
}

extension User {
    init(row: Row) {
        self.init(id: row["id"], name: row["name"], fullName: row["full_name"], email: row["email"],
                  createdOn: Date(millisecondsSince1970: row["created_at"]),
                  modifiedOn: Date(millisecondsSince1970: row["modified_at"]))
    }
}

extension Profile {
    init(row: Row) {
        self.init(birthDate: (row["birth_date"] as String?).flatMap(Day.init(iso:)),
                  sex: (row["sex"] as String?).flatMap(Sex.init(rawValue:)),
                  heightCm: row["height_cm"],
                  leanMassKg: row["lean_mass_kg"],
                  massUnit: MassUnit(rawValue: row["mass_unit"]) ?? .kg,
                  energyUnit: EnergyUnit(rawValue: row["energy_unit"]) ?? .kcal,
                  bmrFormula: BMRFormula(rawValue: row["bmr_formula"]) ?? .mifflinStJeor,
                  goalKg: row["goal_kg"],
                  sleepNeedMinutes: row["sleep_need_minutes"])
    }
}
