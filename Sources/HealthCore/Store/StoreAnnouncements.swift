import HealthModel
import Foundation

/// What a committed write tells the other processes on the same store, where the store can say it (PostgreSQL's
/// `NOTIFY`): its change token, whose data it changed and which kinds, and whether sign-ins may have ended.
/// A server on the same database then wakes only that user's dashboards, instead of looking at the change
/// token every 100 ms and waking everyone's when it moved.
public struct StoreAnnouncement: Sendable, Equatable, Codable {
    /// The store's change token once the write committed.
    public var token: Int64
    /// Whose readings, devices or profile it changed; nil: nobody's (a sign-in, a new token).
    public var userID: String?
    /// What it changed of theirs; nil: not known, so anything.
    public var kinds: Set<ChangeKind>?
    /// Whether it revoked tokens (a sign-out, a password change, a deleted account): open feeds look their
    /// tokens up again.
    public var credentials: Bool

    public init(token: Int64, userID: String? = nil, kinds: Set<ChangeKind>? = nil, credentials: Bool = false) {
        self.token = token
        self.userID = userID
        self.kinds = kinds
        self.credentials = credentials
    }

    private enum CodingKeys: String, CodingKey {
        case token = "t", userID = "u", kinds = "k", credentials = "c"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(Int64.self, forKey: .token)
        userID = try container.decodeIfPresent(String.self, forKey: .userID)
        // A kind this process does not know (a newer server wrote it) makes the kinds unknown.
        kinds = try container.decodeIfPresent([String].self, forKey: .kinds).flatMap { names in
            let known = names.compactMap(ChangeKind.init(rawValue:))
            return known.count == names.count ? Set(known) : nil
        }
        credentials = try container.decodeIfPresent(Bool.self, forKey: .credentials) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encodeIfPresent(userID, forKey: .userID)
        try container.encodeIfPresent(kinds?.sorted().map(\.rawValue), forKey: .kinds)
        if credentials { try container.encode(true, forKey: .credentials) }
    }
}

/// What a store that announces its writes says to a listener.
public enum StoreNews: Sendable, Equatable {
    /// Listening: every write committed from here on is announced. `token` is the change token when it
    /// started, so a listener that was deaf meanwhile can tell whether it missed a write.
    case listening(token: Int64)
    case announced(StoreAnnouncement)
    /// The listening connection was lost; it is opened again, and `listening` follows. Meanwhile the
    /// listener looks at the change token itself.
    case deaf
}

/// A store whose every write transaction announces itself to the other processes on it.
public protocol AnnouncingStore: StoreIdentity {
    /// The announcements of every write committed by anyone, from now until the stream is dropped.
    func news() -> AsyncStream<StoreNews>
}
