import Hummingbird

/// After any request that may have written (every method but GET and HEAD), and before its answer goes
/// out, makes the server read the store's change token again: the caches that trust it for 50 ms (tokens,
/// `messages/last`) then never hide a write from the client that made it. A failed request counts too: a
/// route may have committed before it failed.
struct WriteVisibilityMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let storeVersion: StoreVersionProbe

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let method = request.method
        if method == .get || method == .head { return try await next(request, context) }
        defer { storeVersion.forget() }
        return try await next(request, context)
    }
}
