import Foundation
import Hummingbird
import Logging

/// Applies the rate limit per token (or per IP address for requests without a valid token), adds the
/// contract's `X-Rate-Limit-*` headers to every answer, and answers 429 past the limit, with `Retry-After`.
///
/// Reads and writes count against budgets of their own, each the whole limit: however often a person's
/// dashboards read, the weigh-in they type is not refused for it.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limiter: RateLimiter
    let clock: @Sendable () -> Date
    let logger: Logger
    let outages: DatabaseOutageLog

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let caller = context.principal.map { "t:" + $0.rateKey } ?? "ip:" + context.remoteAddress
        let reads = request.method == .get || request.method == .head
        let key = (reads ? "r:" : "w:") + caller
        let now = Int64(clock().timeIntervalSince1970)
        let verdict = limiter.check(key, now: now)
        var response: Response
        if verdict.allowed {
            do {
                response = try await next(request, context)
            } catch {
                response = try ErrorEnvelopeMiddleware.apiError(for: error, logger: logger, outages: outages).response(from: request, context: context)
            }
        } else {
            response = try APIError.rateLimited.response(from: request, context: context)
            response.headers[.retryAfter] = "\(verdict.retryAfter(now: now))"
        }
        for (name, value) in verdict.headers {
            response.headers[.init(name)!] = value
        }
        return response
    }
}
