import Foundation
import HealthModel

/// Accounts and profiles, written once over an engine's statements. Adding an account stays the engine's
/// (`insertUser`): SQLite keeps the id's bytes beside it, which its readings refer to.
extension AccountRows where Self: StatementEngine {
    public func nameClashing(with name: String) async throws -> String? {
        try await fetchOne(AccountStatements.nameClashing(with: name)).map { try $0.text("name") }
    }

    public func userWithPasswordHash(named name: String) async throws -> (user: User, passwordHash: String)? {
        // The account named `name` after `UserNames.key`; of two that fold together (stores from before the
        // rule), the one whose name is exactly `name`, else the oldest.
        guard let row = try await fetchOne("""
            SELECT * FROM users WHERE name_key = \(UserNames.key(name)) ORDER BY name = \(name) DESC, created_at LIMIT 1
            """) else { return nil }
        return (try User(row: row), try row.text("password_hash"))
    }

    public func replacePasswordHash(_ hash: String, userID: String, now: Date) async throws -> Bool {
        try await writingStatements { db in
            let changed = try db.changes("""
                UPDATE users SET password_hash = \(hash), modified_at = \(now.millisecondsSince1970) WHERE id = \(userID) RETURNING 1
                """)
            try db.run("DELETE FROM tokens WHERE user_id = \(userID)")
            return changed > 0
        }
    }

    public func deleteUserRow(id: String) async throws -> Bool {
        try await writingStatements { db in try db.changes("DELETE FROM users WHERE id = \(id) RETURNING 1") > 0 }
    }

    public func replaceProfile(_ profile: Profile, userID: String, now: Date) async throws -> Bool {
        try await writingStatements { db in
            let changed = try db.changes("""
                UPDATE profiles SET birth_date = \(profile.birthDate?.description), sex = \(profile.sex?.rawValue),
                    height_cm = \(profile.heightCm), lean_mass_kg = \(profile.leanMassKg), mass_unit = \(profile.massUnit.rawValue),
                    energy_unit = \(profile.energyUnit.rawValue), bmr_formula = \(profile.bmrFormula.rawValue), goal_kg = \(profile.goalKg),
                    sleep_need_minutes = \(profile.sleepNeedMinutes)
                WHERE user_id = \(userID) RETURNING 1
                """)
            try db.run("UPDATE users SET modified_at = \(now.millisecondsSince1970) WHERE id = \(userID)")
            return changed > 0
        }
    }
}

extension AccountStore where Self: StatementEngine {
    public func user(id: String) async throws -> User? {
        try await fetchOne(AccountStatements.user(id: id)).map(User.init(row:))
    }

    /// Every account, oldest first.
    public func users() async throws -> [User] {
        try await fetch("SELECT * FROM users ORDER BY created_at, name").map(User.init(row:))
    }

    public func hasUsers() async throws -> Bool {
        try await fetchOne("SELECT 1 AS one FROM users LIMIT 1") != nil
    }

    /// A user's profile; `.unknownUser` when there is no such user.
    public func profile(userID: String) async throws -> Profile {
        try Profile(row: try await fetchOne(AccountStatements.profile(userID: userID)), userID: userID)
    }
}

/// The account statements engine code also runs inside its own transactions (a screen's snapshot).
public enum AccountStatements {
    public static func user(id: String) -> StoreStatement { "SELECT * FROM users WHERE id = \(id)" }

    public static func profile(userID: String) -> StoreStatement { "SELECT * FROM profiles WHERE user_id = \(userID)" }

    /// See `AccountRows.nameClashing`.
    public static func nameClashing(with name: String) -> StoreStatement {
        let key = UserNames.key(name)
        return """
            SELECT name FROM users WHERE name_key = \(key) OR name_skeleton = \(UserNames.skeleton(name))
            ORDER BY name_key = \(key) DESC LIMIT 1
            """
    }
}

extension User {
    public init(row: StoreRow) throws {
        self.init(id: try row.text("id"), name: try row.text("name"), fullName: try row.text("full_name"),
                  email: try row.text("email"), createdOn: try row.date("created_at"), modifiedOn: try row.date("modified_at"))
    }
}

extension Profile {
    /// The profile in `row`; `.unknownUser` when there is none (no such user).
    public init(row: StoreRow?, userID: String) throws {
        guard let row else { throw HealthError.unknownUser(userID) }
        self.init(birthDate: try row.optionalText("birth_date").flatMap(Day.init(iso:)),
                  sex: try row.optionalText("sex").flatMap(Sex.init(rawValue:)),
                  heightCm: try row.optionalReal("height_cm"),
                  leanMassKg: try row.optionalReal("lean_mass_kg"),
                  massUnit: MassUnit(rawValue: try row.text("mass_unit")) ?? .kg,
                  energyUnit: EnergyUnit(rawValue: try row.text("energy_unit")) ?? .kcal,
                  bmrFormula: BMRFormula(rawValue: try row.text("bmr_formula")) ?? .mifflinStJeor,
                  goalKg: try row.optionalReal("goal_kg"),
                  sleepNeedMinutes: try row.optionalReal("sleep_need_minutes"))
    }
}
