import Foundation
import HealthCore
import HealthModel
import Hummingbird
import NIOCore

/// `GET /welltory/{secret}?stress=…`: where Welltory sends a measurement's results (the link
/// `hmon hrv link` prints). The secret in the path stands for the user, so no sign-in is asked; a wrong
/// or revoked one is a 404 that stores nothing, a malformed value a 400 naming the parameter. The answer
/// is a small page, because a phone's browser shows it.
struct WelltoryRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = "/welltory/"

    let services: UserServices
    let configuration: ServerConfiguration

    func add(to router: Router<ServerContext>) {
        router.get("/welltory/:secret") { request, context in
            await callback(request, secret: context.parameters.get("secret") ?? "")
        }
    }

    private func callback(_ request: Request, secret: String) async -> Response {
        let items = URLComponents(string: "http://callback/?" + (request.uri.query ?? ""))?.queryItems ?? []
        do {
            let data = try WelltoryResult.reading(from: items.map { ($0.name, $0.value ?? "") })
            // The callback names no user, only the link's secret, which is resolved with the write itself.
            switch try await services.welltoryResult(secret: secret, data: data, now: configuration.clock()) {
            case .saved(let device):
                return BrowserPage.response(.ok, "Saved", "The measurement is saved to \(device) in hmon. You can close this page.")
            case .alreadySaved(let device):
                return BrowserPage.response(.ok, "Already saved", "This measurement was saved to \(device) before; nothing was added.")
            case .unknownLink:
                return BrowserPage.response(.notFound, "Not found", "This link is not an hmon link (or it was revoked): run `hmon hrv link` for a new one.")
            }
        } catch HealthError.storeUnreachable {
            // Not the callback's fault: the same link works once the database is back.
            var page = BrowserPage.response(.serviceUnavailable, "Not saved",
                                            "hmon cannot reach its database just now; open this link again in a moment.")
            page.headers[.retryAfter] = "\(ServerLimits.unreachableRetryAfterSeconds)"
            return page
        } catch let error as HealthError {
            // The values are checked before the link is looked up: a malformed callback stores nothing
            // whichever secret it carries, and the answer says which parameter is wrong.
            return BrowserPage.response(.badRequest, "Not saved", error.message)
        } catch {
            return BrowserPage.response(.internalServerError, "Not saved", "hmon could not store the measurement; try again.")
        }
    }
}
