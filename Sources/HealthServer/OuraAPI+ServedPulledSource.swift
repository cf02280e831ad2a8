import Foundation
import HealthCore
import HealthConnectors
import Hummingbird

/// What the server says of Oura: webhook subscriptions made and renewed, readings added and changed.
extension OuraAPI: ServedPulledSource {
    /// The Oura link's routes (`hmon link add oura`), beside those every pulled link has (`PulledLinkRoutes`:
    /// the authorization's return at `GET /oura/{secret}?code=…&state=…`, `POST /v1.1/hmon/oura/poll`):
    /// - `GET /oura/{secret}?verification_token=…&challenge=…`: Oura's check of the callback before it makes a
    ///   webhook subscription, answered `{"challenge": …}` when the token is this link's.
    /// - `POST /oura/{secret}`: a notification (`{"event_type", "data_type", "object_id", "event_time", "user_id"}`),
    ///   answered 200 at once; a sleep or readiness notification has the link read right after.
    ///
    /// A wrong or revoked secret is a 404 that does nothing.
    static func addRoutes(_ shared: PulledLinkRoutes<OuraAPI>, to router: Router<ServerContext>) {
        let secretPath = RouterPath(routePrefix + ":secret")
        router.get(secretPath) { request, context -> Response in
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
        router.post(secretPath) { request, context -> Response in
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
    }

    static func pollAnswer(_ fetches: [OuraFetch]) -> OuraPollAnswer { OuraPollAnswer(fetches) }

    /// Makes the missing subscriptions and renews those about to expire.
    static func subscribe(_ polling: PulledPolling<OuraAPI>, base: String) async throws {
        for result in try await polling.sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
            if result.made + result.renewed > 0 {
                let made = "\(result.made) subscription\(result.made == 1 ? "" : "s") made"
                polling.logger.info("Oura link \(result.linkID): \(made), \(result.renewed) renewed at \(base)\(routePrefix)…")
            }
            for problem in result.problems {
                polling.logger.warning("Oura link \(result.linkID): \(problem); polling every \(polling.settings.pollInterval)")
            }
        }
    }

    static func warnings(_ fetch: OuraFetch) -> [String] { [] }

    static func isNews(_ fetch: OuraFetch) -> Bool { fetch.added + fetch.changed > 0 }

    static func summary(_ fetch: OuraFetch) -> String {
        "\(fetch.added) new reading\(fetch.added == 1 ? "" : "s"), \(fetch.changed) changed"
    }

    static var linkedText: String { "hmon now reads this Oura ring's nights. You can close this page." }
    static var subscribesOnceLinked: Bool { true }
}

/// The answer of `POST /v1.1/hmon/oura/poll`: what each of the caller's links added.
struct OuraPollAnswer: Encodable, Sendable {
    struct Link: Encodable, Sendable {
        var id: String
        var added: Int
        var alreadyThere: Int
        var changed: Int
        var skipped: [String]
        var problem: String?
    }

    var added: Int
    var links: [Link]

    init(_ fetches: [OuraFetch]) {
        added = fetches.map(\.added).reduce(0, +)
        links = fetches.map { Link(id: $0.linkID, added: $0.added, alreadyThere: $0.alreadyThere, changed: $0.changed,
                                   skipped: $0.skipped, problem: $0.problem) }
    }
}
