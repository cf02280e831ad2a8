import HTTPTypes
import Hummingbird

/// Sets the request's client address from `X-Forwarded-For` or `Forwarded` when the peer is a trusted
/// proxy (`TrustedProxies`); first of the middlewares that key anything by address.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        var context = context
        context.remoteAddress = proxies.clientAddress(peer: context.remoteAddress,
                                                      forwardedFor: request.headers[values: HTTPField.Name("X-Forwarded-For")!],
                                                      forwarded: request.headers[values: HTTPField.Name("Forwarded")!])
        return try await next(request, context)
    }
}
