import Foundation
import HealthCore
import HealthConnectors
import Hummingbird

/// The Oura link's routes (`hmon link add oura`), beside those every pulled link has (`PulledLinkRoutes`:
/// the authorization's return at `GET /oura/{secret}?code=…&state=…`, `POST /v1.1/hmon/oura/poll`):
/// - `GET /oura/{secret}?verification_token=…&challenge=…`: Oura's check of the callback before it makes a
///   webhook subscription, answered `{"challenge": …}` when the token is this link's.
/// - `POST /oura/{secret}`: a notification (`{"event_type", "data_type", "object_id", "event_time", "user_id"}`),
///   answered 200 at once; a sleep or readiness notification has the link read right after.
///
/// A wrong or revoked secret is a 404 that does nothing.
struct OuraRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = PulledLinkRoutes<OuraAPI>.prefix

    let shared: PulledLinkRoutes<OuraAPI>

    init(store: any PushLinkStore, polling: OuraPolling, configuration: ServerConfiguration) {
        shared = PulledLinkRoutes(store: store, polling: polling, configuration: configuration)
    }

    func add(to router: Router<ServerContext>) {
        let shared = self.shared
        router.get("/oura/:secret") { request, context -> Response in
            let secret = context.parameters.get("secret") ?? ""
            if let query = try? RequestInput.query(request), let token = query["verification_token"], let challenge = query["challenge"] {
                guard let link = try await shared.link(secret: secret) else { throw shared.notALink }
                // Compared as hashes: the time it takes says nothing of how much of the token was right.
                guard Secrets.sha256Hex(token) == Secrets.sha256Hex(link.verificationToken) else {
                    throw APIError(.unauthorized, code: 401, message: "The verification token is not this link's.")
                }
                return JSONBody.response(["challenge": challenge])
            }
            return try await shared.authorized(request, secret: secret)
        }
        router.post("/oura/:secret") { request, context -> Response in
            guard let link = try await shared.link(secret: context.parameters.get("secret") ?? "") else { throw shared.notALink }
            // Any notification is acknowledged, or Oura would send it again; one of a document hmon keeps has the link read.
            let body = try await RequestInput.bytes(request)
            let notification = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            if let dataType = notification?["data_type"] as? String, OuraAPI.notifiedDataTypes.contains(dataType), link.tokens != nil {
                let polling = shared.polling
                _ = await shared.sync.schedule(linkID: link.linkID) { polling.report([$0], asked: true) }
            }
            return Response(status: .ok)
        }
        shared.addPollRoute(to: router)
    }
}
