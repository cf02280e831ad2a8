import Foundation

/// One device of a user: a scale, a food log, a watch.
public struct Device: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// The owner's user id.
    public var uid: String
    /// The device type id.
    public var dtid: String
    public var name: String
    public var manifestVersion: Int
    public var createdOn: Date
    public var connected: Bool

    public init(id: String, uid: String, dtid: String, name: String, manifestVersion: Int = 1,
                createdOn: Date, connected: Bool = true) {
        self.id = id
        self.uid = uid
        self.dtid = dtid
        self.name = name
        self.manifestVersion = manifestVersion
        self.createdOn = createdOn
        self.connected = connected
    }
}
