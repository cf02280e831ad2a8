import Foundation
import HealthModel

/// The engine's side of accounts: the few reads and writes of account rows, each one transaction of its
/// own, in the store's terms. Everything around them (the checks, the hashing, the errors) is written once,
/// over this, in `AccountStore+Rows`, so both engines take and refuse the same accounts in the same words.
public protocol AccountRows: AnyObject, Sendable {
    var passwordHasher: PasswordHasher { get }
    /// The existing name `name` collides with: the same after `UserNames.key` (preferred), else the same
    /// skeleton (`UserNames.skeleton`); nil when there is none.
    func nameClashing(with name: String) async throws -> String?
    /// Adds the account with an empty profile, in one transaction that first checks, as `UserNames.checkFree`
    /// does, that no account took the name since: another process may have.
    func insertUser(_ user: User, passwordHash: String) async throws
    /// The account `name` signs in as (`UserNames.key`; of two that fold together, the one named exactly
    /// `name`, else the oldest), with its password's hash.
    func userWithPasswordHash(named name: String) async throws -> (user: User, passwordHash: String)?
    /// Replaces the password's hash and, in the same transaction, revokes all the user's tokens; false when
    /// there is no such user.
    func replacePasswordHash(_ hash: String, userID: String, now: Date) async throws -> Bool
    /// Deletes the account with everything it owns; false when there is no such user.
    func deleteUserRow(id: String) async throws -> Bool
    /// Saves the profile and the account's modification time; false when there is no such user.
    func replaceProfile(_ profile: Profile, userID: String, now: Date) async throws -> Bool
}
