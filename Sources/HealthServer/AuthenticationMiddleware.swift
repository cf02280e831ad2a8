import Foundation
import HealthCore
import HealthModel
import Hummingbird

/// Reads `Authorization: Bearer <token>` (any case of "Bearer") or, for Exist's read-only personal tokens,
/// `Authorization: Token <token>`, checks the token against the store and, when it is live, puts the
/// caller in `context.principal`. It never rejects a request
/// itself: routes that need a caller answer 401, and the rate limit counts anonymous requests by address.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let store: any TokenStore
    let cache: TokenCache
    let storeVersion: StoreVersionProbe
    let clock: @Sendable () -> Date

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        var context = context
        if let (token, personal) = Self.token(request) {
            let now = clock()
            let hash = Secrets.sha256Hex(token)
            // A personal token is cached under a key of its own: the two kinds never stand for each other.
            let key = personal ? "personal:" + hash : hash
            // Read before the token, so a commit landing in between makes the entry stale, never the reverse.
            let version = try await storeVersion.current()
            var record = cache.record(forHash: key, now: now, storeVersion: version)
            if record == nil, let stored = personal ? try await store.personalToken(token)
                                                    : try await store.token(token, kind: .access, now: now) {
                cache.remember(stored, forHash: key, now: now, storeVersion: version)
                record = stored
            }
            if let record {
                let kind: Principal.Kind = record.userID.map { .user(id: $0) } ?? .client(id: record.clientID ?? "")
                context.principal = Principal(kind: kind, scopes: Scope.parse(record.scope), rateKey: hash,
                                              clientID: record.clientID, isPersonal: personal,
                                              undoSession: record.family.map(UndoJournal.session(ofFamily:))
                                                  ?? UndoJournal.session(ofToken: token),
                                              expiresAt: record.expiresAt)
            }
        }
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer …` header; nil for none or another scheme.
    static func bearerToken(_ request: Request) -> String? {
        guard let (token, personal) = token(request), !personal else { return nil }
        return token
    }

    /// The token of a `Bearer` or `Token` (personal) authorization header.
    static func token(_ request: Request) -> (token: String, personal: Bool)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let scheme = parts[0].lowercased()
        guard scheme == "bearer" || scheme == "token" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : (token, scheme == "token")
    }
}

/// OAuth scopes: a comma list, `read,write` by default.
enum Scope {
    static let read = "read"
    static let write = "write"
    static let all = "read,write"

    /// The scopes in `text`, apart by a space (RFC 6749), a comma, or the `+` Exist's documentation writes, which
    /// arrives as `+` when a client percent-encodes it (`%2B`) and as `%2B` itself when it is encoded twice.
    static func parse(_ text: String?) -> Set<String> {
        guard let text, !text.isEmpty else { return [read, write] }
        let separated = text.replacingOccurrences(of: "%2B", with: "+", options: .caseInsensitive)
        return Set(separated.split { $0 == "," || $0 == " " || $0 == "+" }.map { String($0).lowercased() })
    }

    /// The requested scopes that hmon knows (its own `read`, `write` and Exist's `<group>_read`,
    /// `<group>_write`), as a comma list; nil when none is known.
    static func normalized(_ text: String?) -> String? {
        let requested = parse(text)
        let known = requested.intersection([read, write])
        let exist = requested.intersection(ExistScope.all)
        if known.isEmpty && exist.isEmpty { return nil }
        return ([read, write].filter(known.contains) + exist.sorted()).joined(separator: ",")
    }
}
