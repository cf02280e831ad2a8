import Hummingbird

/// Handles each request in one of its client address's turns (`AddressTurns`), so that one host cannot
/// crowd out the others however many connections it opens. First after the client address is known; a
/// trusted proxy's own address (no forwarded one) stands for many users and waits for no turn.
struct FairShareMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let turns: AddressTurns
    let trustedProxies: TrustedProxies

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let address = context.remoteAddress
        if trustedProxies.isTrusted(address) { return try await next(request, context) }
        try await turns.take(address)
        defer { turns.give(address) }
        return try await next(request, context)
    }
}
