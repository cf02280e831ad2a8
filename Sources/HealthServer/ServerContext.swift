import Foundation
import HealthCore
import HealthModel
import Hummingbird
import NIOCore

/// Who is calling, once a bearer token has been checked.
struct Principal: Sendable {
    enum Kind: Sendable {
        /// A person signed in through `/authorize`: may read and post to their own devices.
        case user(id: String)
        /// A client with `client_credentials` (a scale bridge, a script): may only post readings.
        case client(id: String)
    }

    var kind: Kind
    /// The scopes granted ("read", "write").
    var scopes: Set<String>
    /// A stable, non-secret key for the token (its hash), used to count requests for the rate limit.
    var rateKey: String
    /// The OAuth client the token was issued to (its service owns what it writes through `/api/2/`).
    var clientID: String? = nil
    /// A read-only personal token (`Authorization: Token …`).
    var isPersonal = false
    /// The undo journal the token's changes go to: its OAuth family (one sign-in, through its refreshes),
    /// else its hash (`UndoJournal.session`).
    var undoSession: String? = nil
    /// When the token stops working by itself; nil for one that lives until revoked.
    var expiresAt: Date? = nil

    var userID: String? { if case .user(let id) = kind { id } else { nil } }

    /// Whether the token may read (or write) an Exist group: hmon's own `read`/`write` cover every group.
    func allows(group: String, write: Bool) -> Bool {
        if write && isPersonal { return false }
        return scopes.contains(write ? Scope.write : Scope.read)
            || scopes.contains(write ? ExistScope.write(group) : ExistScope.read(group))
    }
}

/// The request context: Hummingbird's core storage plus the caller's identity and address.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware` when the request carries a valid bearer token.
    var principal: Principal?
    /// The client's IP address: the rate-limit key of anonymous requests and the sign-in throttle's. The
    /// peer's, until `ClientAddressMiddleware` takes a trusted proxy's word for it.
    var remoteAddress: String
    /// The address the connection comes from, whatever a proxy says: whether its forwarded headers count.
    let peerAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        peerAddress = remoteAddress
    }

    /// The contract's cap on request bodies.
    var maxUploadSize: Int { ServerLimits.maxBodyBytes }
}
