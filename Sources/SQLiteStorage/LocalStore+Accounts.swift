import Foundation
import GRDB
import HealthCore
import HealthModel

/// Accounts and profiles.
extension LocalStore {
    /// Opens an account (with an empty profile). Throws `.nameTaken` (also for a name that is an existing
    /// one after `UserNames.key`) or `.invalidValue` (also for a look-alike of an existing name); writes
    /// nothing then.
    public func createUser(_ account: NewAccount, now: Date = Date()) async throws -> User {
        let name = account.name.trimmingCharacters(in: .whitespaces)
        try AccountRules.check(name: name, email: account.email, password: account.password)
        try AccountRules.check(fullName: account.fullName.trimmingCharacters(in: .whitespaces))
        try await checkNameIsFree(name)
        // The slow hash runs outside the write transaction, so it never holds the write lock.
        let hash = try passwordHasher.hash(account.password)
        let user = User(id: Secrets.newID(), name: name, fullName: account.fullName.trimmingCharacters(in: .whitespaces),
                        email: account.email.trimmingCharacters(in: .whitespaces), createdOn: now, modifiedOn: now)
        try await write { db in
            // Checked again in the transaction: another process may have taken the name since.
            try Self.checkNameIsFree(name, in: db)
            try db.execute(
                sql: """
                    INSERT INTO users (id, key, name, name_key, name_skeleton, full_name, email, password_hash, created_at, modified_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [user.id, StoredID(user.id), user.name, UserNames.key(name), UserNames.skeleton(name), user.fullName, user.email, hash,
                            now.millisecondsSince1970, now.millisecondsSince1970])
            try db.execute(sql: "INSERT INTO profiles (user_id) VALUES (?)", arguments: [user.id])
        }
        return user
    }

    /// Throws `.nameTaken` when an account has this name after NFKC and case folding, `.invalidValue`
    /// when one has a name it only looks like (`UserNames.skeleton`).
    public func checkNameIsFree(_ name: String) async throws {
        try StoreRules.checkNoNUL(name, as: "username")
        try await read { db in try Self.checkNameIsFree(name, in: db) }
    }

    public func user(id: String) async throws -> User? {
        try await read { db in try Self.user(id: id, in: db) }
    }

    /// Looks a user up by login name, compared as the uniqueness rule compares (`UserNames.key`).
    public func user(named name: String) async throws -> User? {
        try StoreRules.checkNoNUL(name, as: "username")
        return try await read { db in try Self.userRow(named: name, in: db).map(User.init(row:)) }
    }

    /// Every account, oldest first.
    public func users() async throws -> [User] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY created_at, name").map(User.init(row:)) }
    }

    public func hasUsers() async throws -> Bool {
        try await read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users)") ?? false }
    }

    /// The user whose name and password match; `.wrongPassword` otherwise (the same error for an
    /// unknown name, so the answer does not reveal which names exist).
    public func authenticate(name: String, password: String,
                             runningCheckOn runner: PasswordCheckRunner = { check in check() }) async throws -> User {
        try AccountRules.checkEncoding(password: password)
        try StoreRules.checkNoNUL(name, as: "username")
        let found = try await read { db -> (User, String)? in
            guard let row = try Self.userRow(named: name, in: db) else { return nil }
            return (User(row: row), row["password_hash"])
        }
        guard let (user, hash) = found else {
            // Spend the same time as a real check, on the same runner, so timing does not reveal which names exist.
            let hasher = passwordHasher
            _ = try await runner { (try? hasher.hash(password)) == nil }
            throw HealthError.wrongPassword
        }
        guard try await runner({ PasswordHasher.verify(password, against: hash) }) else { throw HealthError.wrongPassword }
        return user
    }

    /// Replaces a user's password (after checking its length) and, in the same transaction, revokes
    /// all their tokens: whoever signed in with the old password is signed out.
    public func setPassword(_ password: String, userID: String, now: Date = Date()) async throws {
        try AccountRules.check(password: password)
        let hash = try passwordHasher.hash(password)
        let changed = try await write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ?, modified_at = ? WHERE id = ?",
                           arguments: [hash, now.millisecondsSince1970, userID])
            let changed = db.changesCount
            try db.execute(sql: "DELETE FROM tokens WHERE user_id = ?", arguments: [userID])
            return changed
        }
        if changed == 0 { throw HealthError.unknownUser(userID) }
    }

    /// Deletes an account with its profile, devices, readings and tokens.
    public func deleteUser(id: String) async throws {
        let deleted = try await write { db in
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
            return db.changesCount
        }
        if deleted == 0 { throw HealthError.unknownUser(id) }
    }

    public func profile(userID: String) async throws -> Profile {
        try await read { db in try Self.profile(userID: userID, in: db) }
    }

    /// Saves a profile after checking its values are humanly possible (`.invalidValue` otherwise).
    public func updateProfile(_ profile: Profile, userID: String, now: Date = Date()) async throws {
        try ProfileRules.check(profile, today: Day(now, in: Calendar.current))
        let changed = try await write { db in
            try db.execute(
                sql: """
                    UPDATE profiles SET birth_date = ?, sex = ?, height_cm = ?, lean_mass_kg = ?,
                        mass_unit = ?, energy_unit = ?, bmr_formula = ?, goal_kg = ?
                    WHERE user_id = ?
                    """,
                arguments: [profile.birthDate?.description, profile.sex?.rawValue, profile.heightCm, profile.leanMassKg,
                            profile.massUnit.rawValue, profile.energyUnit.rawValue, profile.bmrFormula.rawValue,
                            profile.goalKg, userID])
            let changed = db.changesCount
            try db.execute(sql: "UPDATE users SET modified_at = ? WHERE id = ?", arguments: [now.millisecondsSince1970, userID])
            return changed
        }
        if changed == 0 { throw HealthError.unknownUser(userID) }
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

    static func checkNameIsFree(_ name: String, in db: Database) throws {
        let key = UserNames.key(name)
        guard let existing = try String.fetchOne(db, sql: """
            SELECT name FROM users WHERE name_key = ? OR name_skeleton = ? ORDER BY name_key = ? DESC LIMIT 1
            """, arguments: [key, UserNames.skeleton(name), key])
        else { return }
        if UserNames.key(existing) == key { throw HealthError.nameTaken(name) }
        throw HealthError.invalidValue(
            "name \"\(name)\" looks like the existing user name \"\(existing)\" (it mixes letters of another script): choose another")
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
                  goalKg: row["goal_kg"])
    }
}
