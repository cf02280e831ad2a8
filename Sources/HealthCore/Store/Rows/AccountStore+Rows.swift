import Foundation
import HealthModel

/// Accounts, once for both engines: a store that keeps account rows (`AccountRows`) gets these.
extension AccountStore where Self: AccountRows {
    /// Opens an account (with an empty profile). Throws `.nameTaken` (also for a name that is an existing
    /// one after `UserNames.key`) or `.invalidValue` (also for a look-alike of an existing name); writes
    /// nothing then.
    public func createUser(_ account: NewAccount, at now: Date) async throws -> User {
        let name = account.name.trimmingCharacters(in: .whitespaces)
        let fullName = account.fullName.trimmingCharacters(in: .whitespaces)
        try AccountRules.check(name: name, email: account.email, password: account.password)
        try AccountRules.check(fullName: fullName)
        try await checkNameIsFree(name)
        // The slow hash runs before the write transaction, so it never holds the write lock.
        let hash = try passwordHasher.hash(account.password)
        let user = User(id: Secrets.newID(), name: name, fullName: fullName,
                        email: account.email.trimmingCharacters(in: .whitespaces), createdOn: now, modifiedOn: now)
        try await insertUser(user, passwordHash: hash)
        return user
    }

    /// Throws `.nameTaken` when an account has this name after NFKC and case folding, `.invalidValue`
    /// when one has a name it only looks like (`UserNames.skeleton`).
    public func checkNameIsFree(_ name: String) async throws {
        try StoreRules.checkNoNUL(name, as: "username")
        try UserNames.checkFree(name, clashingWith: try await nameClashing(with: name))
    }

    /// Looks a user up by login name, compared as the uniqueness rule compares (`UserNames.key`).
    public func user(named name: String) async throws -> User? {
        try StoreRules.checkNoNUL(name, as: "username")
        return try await userWithPasswordHash(named: name)?.user
    }

    /// The user whose name and password match; `.wrongPassword` otherwise (the same error for an
    /// unknown name, so the answer does not reveal which names exist).
    public func authenticate(name: String, password: String, runningCheckOn runner: PasswordCheckRunner) async throws -> User {
        try AccountRules.checkEncoding(password: password)
        try StoreRules.checkNoNUL(name, as: "username")
        guard let (user, hash) = try await userWithPasswordHash(named: name) else {
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
    public func setPassword(_ password: String, userID: String, at now: Date) async throws {
        try AccountRules.check(password: password)
        let hash = try passwordHasher.hash(password)
        guard try await replacePasswordHash(hash, userID: userID, now: now) else { throw HealthError.unknownUser(userID) }
    }

    /// Deletes an account with its profile, devices, readings and tokens.
    public func deleteUser(id: String) async throws {
        guard try await deleteUserRow(id: id) else { throw HealthError.unknownUser(id) }
    }

    /// Saves a profile after checking its values are humanly possible (`.invalidValue` otherwise).
    public func updateProfile(_ profile: Profile, userID: String, at now: Date) async throws {
        try ProfileRules.check(profile, today: Day(now, in: Calendar.current))
        guard try await replaceProfile(profile, userID: userID, now: now) else { throw HealthError.unknownUser(userID) }
    }
}
