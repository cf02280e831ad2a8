import Foundation
import HealthModel

/// Who writes an attribute through Exist's API: a client service, and the device its values go to.
public struct ExistOwner: Sendable, Equatable {
    public var clientID: String
    /// The client's name, shown as the attribute's `service`.
    public var service: String
    public var deviceID: String

    package init(clientID: String, service: String, deviceID: String) {
        self.clientID = clientID
        self.service = service
        self.deviceID = deviceID
    }
}

/// A read-only personal token as `hmon token list` shows it (never the token itself).
public struct PersonalToken: Sendable, Equatable {
    public var id: String
    public var userName: String
    public var label: String
    public var createdAt: Date

    package init(id: String, userName: String, label: String, createdAt: Date) {
        self.id = id
        self.userName = userName
        self.label = label
        self.createdAt = createdAt
    }
}
