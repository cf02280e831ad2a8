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

    var userID: String? { if case .user(let id) = kind { id } else { nil } }
}

/// The request context: Hummingbird's core storage plus the caller's identity and address.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware` when the request carries a valid bearer token.
    var principal: Principal?
    /// The peer's IP address: the rate-limit key of anonymous requests.
    let remoteAddress: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The contract's cap on request bodies.
    var maxUploadSize: Int { ServerLimits.maxBodyBytes }
}
