import Foundation
import HealthCore
import HealthConnectors
import Hummingbird

/// What the server says of Withings: notifications subscribed once per public URL, weigh-ins counted.
extension WithingsAPI: ServedPulledSource {
    /// The Withings link's routes (`hmon link add withings`), beside those every pulled link has
    /// (`PulledLinkRoutes`: the authorization's return at `GET /withings/{secret}`, `POST /v1.1/hmon/withings/poll`):
    /// - `HEAD /withings/{secret}`: Withings' check of the callback URL before it subscribes it: 200.
    /// - `POST /withings/{secret}`: a notification (`userid=…&appli=1&startdate=…&enddate=…`), answered 200 at
    ///   once; the link's new measure groups are fetched right after.
    ///
    /// A wrong or revoked secret is a 404 that does nothing.
    static func addRoutes(_ shared: PulledLinkRoutes<WithingsAPI>, to router: Router<ServerContext>) {
        let secretPath = RouterPath(routePrefix + ":secret")
        router.head(secretPath) { _, context -> Response in
            guard try await shared.link(secret: context.parameters.get("secret") ?? "") != nil else { throw shared.notALink }
            return Response(status: .ok)
        }
        router.get(secretPath) { request, context -> Response in
            try await shared.authorized(request, secret: context.parameters.get("secret") ?? "")
        }
        router.post(secretPath) { request, context -> Response in
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
    }

    static func pollAnswer(_ fetches: [WithingsFetch]) -> WithingsPollAnswer { WithingsPollAnswer(fetches) }

    static func subscribe(_ polling: PulledPolling<WithingsAPI>, base: String) async throws {
        for (id, problem) in try await polling.sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
            if let problem {
                polling.logger.warning("Withings link \(id): notifications not subscribed: \(problem); polling every \(polling.settings.pollInterval)")
            } else {
                polling.logger.info("Withings link \(id): subscribed to notifications at \(base)\(routePrefix)…")
            }
        }
    }

    /// A group Withings dated impossibly (or with an impossible figure) is named.
    static func warnings(_ fetch: WithingsFetch) -> [String] {
        fetch.refused > 0 ? [fetch.skipped.joined(separator: "; ")] : []
    }

    static func isNews(_ fetch: WithingsFetch) -> Bool { fetch.added > 0 }

    static func summary(_ fetch: WithingsFetch) -> String { "\(fetch.added) new weigh-in\(fetch.added == 1 ? "" : "s")" }

    static var linkedText: String { "hmon now reads this Withings account's weigh-ins. You can close this page." }
    static var subscribesOnceLinked: Bool { false }
}

/// The answer of `POST /v1.1/hmon/withings/poll`: what each of the caller's links added.
struct WithingsPollAnswer: Encodable, Sendable {
    struct Link: Encodable, Sendable {
        var id: String
        var added: Int
        var alreadyThere: Int
        var skipped: [String]
        /// Measure groups refused for their date or a figure (each named in `skipped`).
        var refused: Int
        var problem: String?
    }

    var added: Int
    var links: [Link]

    init(_ fetches: [WithingsFetch]) {
        added = fetches.map(\.added).reduce(0, +)
        links = fetches.map { Link(id: $0.linkID, added: $0.added, alreadyThere: $0.alreadyThere, skipped: $0.skipped,
                              refused: $0.refused, problem: $0.problem) }
    }
}
