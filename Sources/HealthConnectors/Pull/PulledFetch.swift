import HealthCore

/// What one read of a pulled link did, for the server's log and the poll route's answer.
public protocol PulledFetch: Sendable, Equatable {
    var linkID: String { get }
    /// Readings new to the store.
    var added: Int { get }
    /// Why the link was not read (not authorized yet, refused by the source); nil when it was.
    var problem: String? { get set }

    /// A read of the link that did nothing yet.
    init(linkID: String)
    /// What the read brought, as the link notes it for the sync doctor (a read that worked with nothing new
    /// still hears from the source).
    var arrival: LinkArrival { get }
}
