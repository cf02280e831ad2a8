import Foundation
import HealthConnectors
import Hummingbird
import Logging

/// One log line per request: method, path (never the query string, which may carry a token), status and
/// time taken. Headers and bodies are never logged: they carry tokens and passwords.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let status: Int
        do {
            let response = try await next(request, context)
            status = response.status.code
            log(request, status, since: start)
            return response
        } catch let error as HTTPResponseError {
            status = error.status.code
            log(request, status, since: start)
            throw error
        } catch {
            log(request, 500, since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method) \(Self.loggedPath(request.uri.path)) \(status) \((ms * 10).rounded() / 10)ms")
    }

    /// The paths that end in a secret: a Welltory callback's, a push source's link's, a pulled source's link's.
    static let secretPrefixes = [WelltoryRoutes.prefix] + PushSources.prefixes + PulledSources.prefixes

    /// The path as the log shows it: a Welltory callback's, a push or pulled source's link's path ends in its
    /// user's secret, so that part is left out.
    static func loggedPath(_ path: String) -> String {
        for prefix in secretPrefixes where path.hasPrefix(prefix) {
            return prefix + "…"
        }
        return path
    }
}
