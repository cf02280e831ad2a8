import Hummingbird

/// Awaits `ServerConfiguration.beforeEachRequest` before a request goes on (tests hold answers back with it).
struct RequestHookMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let hook: @Sendable (String) async -> Void

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        await hook(request.uri.description)
        return try await next(request, context)
    }
}
