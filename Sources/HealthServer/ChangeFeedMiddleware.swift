import HealthModel
import HealthCore
import Hummingbird
import Synchronization

/// Tells the change feed about every request that may have written (any method but GET and HEAD) once it
/// is answered, with the user whose data it wrote when that is known: that user's dashboards then hear of
/// it at once (`ChangeFeed.writeFinished`). The user is the signed-in user behind the token (so this sits
/// after `AuthenticationMiddleware`), or whom a route says it wrote for (`ChangeFeedMiddleware.wrote(for:)`:
/// a Health Auto Export link stands for its user without any token).
struct ChangeFeedMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let feed: ChangeFeed

    /// Whose data the request under way writes, and what it changed, as the route learns them.
    final class WriteOwner: Sendable {
        let userID: Mutex<String?>
        /// Nil until a route says: then anything may have changed.
        let kinds = Mutex<Set<ChangeKind>?>(nil)
        init(_ userID: String?) { self.userID = Mutex(userID) }
    }

    @TaskLocal static var owner: WriteOwner?

    /// Called by a route that learns whose data it writes from something else than the token.
    static func wrote(for userID: String) {
        owner?.userID.withLock { $0 = userID }
    }

    /// Called by a route that knows what its write changed (a meal: energy), so dashboards showing something
    /// else need not reload. Nil leaves it unknown.
    static func wrote(kinds: Set<ChangeKind>?) {
        owner?.kinds.withLock { $0 = kinds }
    }

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let method = request.method
        if method == .get || method == .head { return try await next(request, context) }
        feed.writeStarted()
        let owner = WriteOwner(context.principal?.userID)
        let signsIn = Self.signInPaths.contains(request.uri.path)
        func audience() -> ChangeFeed.Audience {
            if signsIn { return .nobody }
            return owner.userID.withLock { $0 }.map { .user($0) } ?? .everyone
        }
        do {
            let response = try await Self.$owner.withValue(owner) { try await next(request, context) }
            await feed.writeFinished(for: audience(), kinds: owner.kinds.withLock { $0 }, succeeded: response.status.code < 400)
            return response
        } catch {
            // A route may have committed before it failed: the token says whether it did.
            await feed.writeFinished(for: audience(), kinds: nil, succeeded: false)
            throw error
        }
    }

    /// Sign-in, token and revocation routes: they write tokens, never readings, so no dashboard reloads for
    /// them (a dashboard refreshing its token would otherwise wake every other one).
    static let signInPaths: Set<String> = ["/authorize", "/token", "/oauth2/authorize", "/oauth2/access_token",
                                           "/revokeAccessToken", "/api/1/auth/simple-token", "/api/2/auth/simple-token",
                                           "/api/1/auth/simple-token/", "/api/2/auth/simple-token/"]
}
