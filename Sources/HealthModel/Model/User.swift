import Foundation

/// A person with an account, as SAMI's `users/self` describes them.
///
/// `createdOn` and `modifiedOn` travel over the wire in **seconds** (the platform's one exception to milliseconds).
public struct User: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// The login name.
    public var name: String
    public var fullName: String
    public var email: String
    public var createdOn: Date
    public var modifiedOn: Date

    public init(id: String, name: String, fullName: String, email: String, createdOn: Date, modifiedOn: Date) {
        self.id = id
        self.name = name
        self.fullName = fullName
        self.email = email
        self.createdOn = createdOn
        self.modifiedOn = modifiedOn
    }
}
