import Foundation
import HealthModel

/// A Welltory callback link as kept: whose it is and the device its results go to.
public struct WelltoryLinkRow: Sendable, Equatable {
    public var userID: String
    public var deviceID: String
    public var deviceName: String

    public init(userID: String, deviceID: String, deviceName: String) {
        self.userID = userID
        self.deviceID = deviceID
        self.deviceName = deviceName
    }
}

/// The engine's side of Welltory's links, each call one transaction of its own; what a link makes and
/// what a callback stores are written once, over this, in `WelltoryLinkStore+Rows`.
public protocol WelltoryLinkRows: AnyObject, Sendable {
    /// The user's first device of the type (oldest, then lowest id in byte order); nil when they have none.
    func firstDeviceID(ofType typeID: String, userID: String) async throws -> String?
    /// Keeps the link whose secret hashes to `hash`, in place of any the user had.
    func replaceWelltoryLink(hash: String, userID: String, deviceID: String, now: Date) async throws
    /// The link whose secret hashes to `hash`, with its device's name; nil for none.
    func welltoryLink(hash: String) async throws -> WelltoryLinkRow?
}
