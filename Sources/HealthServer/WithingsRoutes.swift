import Foundation
import HealthCore
import HealthConnectors
import Hummingbird

/// The Withings link's routes (`hmon link add withings`), beside those every pulled link has
/// (`PulledLinkRoutes`: the authorization's return at `GET /withings/{secret}`, `POST /v1.1/hmon/withings/poll`):
/// - `HEAD /withings/{secret}`: Withings' check of the callback URL before it subscribes it: 200.
/// - `POST /withings/{secret}`: a notification (`userid=…&appli=1&startdate=…&enddate=…`), answered 200 at
///   once; the link's new measure groups are fetched right after.
///
/// A wrong or revoked secret is a 404 that does nothing.
struct WithingsRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = PulledLinkRoutes<WithingsAPI>.prefix

    let shared: PulledLinkRoutes<WithingsAPI>

    init(store: any PushLinkStore, polling: WithingsPolling, configuration: ServerConfiguration) {
        shared = PulledLinkRoutes(store: store, polling: polling, configuration: configuration)
    }

    func add(to router: Router<ServerContext>) {
        let shared = self.shared
        router.head("/withings/:secret") { _, context -> Response in
            guard try await shared.link(secret: context.parameters.get("secret") ?? "") != nil else { throw shared.notALink }
            return Response(status: .ok)
        }
        router.get("/withings/:secret") { request, context -> Response in
            try await shared.authorized(request, secret: context.parameters.get("secret") ?? "")
        }
        router.post("/withings/:secret") { request, context -> Response in
            guard let link = try await shared.link(secret: context.parameters.get("secret") ?? "") else { throw shared.notALink }
            let form = try await RequestInput.form(request)
            // Only a weight notification of this link's Withings account is acted on; any other is
            // acknowledged all the same, or Withings would retry it.
            // A burst of notifications for one link is read by at most two fetches (`PulledSync.schedule`).
            if form["appli"] == "1", let userid = form["userid"], userid == link.tokens?.userid {
                let polling = shared.polling
                _ = await shared.sync.schedule(linkID: link.linkID) { polling.report([$0], asked: true) }
            }
            return Response(status: .ok)
        }
        shared.addPollRoute(to: router)
    }
}
