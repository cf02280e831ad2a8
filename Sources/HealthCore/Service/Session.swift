import Foundation
import HealthModel

/// A signed-in session as saved between launches (`session.json`, mode 0600).
/// `token` is the secret: never log it or show it.
public struct Session: Codable, Sendable, Equatable {
    public var userID: String
    public var userName: String
    /// Where the session belongs: the store's file path, or the server's base URL.
    public var location: String
    public var token: String
    public var refreshToken: String?
    public var expiresAt: Date?

    public init(userID: String, userName: String, location: String, token: String,
                refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.userID = userID
        self.userName = userName
        self.location = location
        self.token = token
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}
