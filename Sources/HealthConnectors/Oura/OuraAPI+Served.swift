import Foundation
import HealthCore

/// What the server says of Oura: its check of a link's callback, its notifications, webhook subscriptions
/// made and renewed, readings added and changed.
///
/// Beside the routes every pulled link has (the authorization's return at `GET /oura/{secret}?code=…&state=…`,
/// `POST /v1.1/hmon/oura/poll`):
/// - `GET /oura/{secret}?verification_token=…&challenge=…`: Oura's check of the callback before it makes a
///   webhook subscription, answered `{"challenge": …}` when the token is this link's.
/// - `POST /oura/{secret}`: a notification (`{"event_type", "data_type", "object_id", "event_time", "user_id"}`),
///   answered 200 at once; a sleep or readiness notification has the link read right after.
extension OuraAPI: ServedPulledSource {
    public static var callbackMethods: [PulledCallback.Method] { [.post] }
    public static var callbackBody: PulledCallback.Body { .bytes }

    public static func isAuthorizationReturn(_ query: [String: String]?) -> Bool {
        query?["verification_token"] == nil || query?["challenge"] == nil
    }

    public static func answer(_ callback: PulledCallback, link: OuraLink) -> PulledCallback.Answer {
        if callback.method == .get, let token = callback.query?["verification_token"], let challenge = callback.query?["challenge"] {
            // Compared as hashes: the time it takes says nothing of how much of the token was right.
            guard Secrets.sha256Hex(token) == Secrets.sha256Hex(link.verificationToken) else {
                return .refused(status: 401, message: "The verification token is not this link's.")
            }
            return .json(["challenge": challenge])
        }
        // Any notification is acknowledged, or Oura would send it again; one of a document hmon keeps has the link read.
        let notification = (try? JSONSerialization.jsonObject(with: callback.body)) as? [String: Any]
        if let dataType = notification?["data_type"] as? String, notifiedDataTypes.contains(dataType), link.tokens != nil {
            return .read
        }
        return .acknowledged
    }

    public static func pollAnswer(_ fetches: [OuraFetch]) -> OuraPollAnswer { OuraPollAnswer(fetches) }

    /// Makes the missing subscriptions and renews those about to expire.
    public static func subscribe(_ sync: OuraSync, base: String, pollInterval: Duration) async throws -> [PulledLogLine] {
        var lines: [PulledLogLine] = []
        for result in try await sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
            if result.made + result.renewed > 0 {
                let made = "\(result.made) subscription\(result.made == 1 ? "" : "s") made"
                lines.append(.info("Oura link \(result.linkID): \(made), \(result.renewed) renewed at \(base)\(routePrefix)…"))
            }
            for problem in result.problems {
                lines.append(.warning("Oura link \(result.linkID): \(problem); polling every \(pollInterval)"))
            }
        }
        return lines
    }

    public static func warnings(_ fetch: OuraFetch) -> [String] { [] }

    public static func isNews(_ fetch: OuraFetch) -> Bool { fetch.added + fetch.changed > 0 }

    public static func summary(_ fetch: OuraFetch) -> String {
        "\(fetch.added) new reading\(fetch.added == 1 ? "" : "s"), \(fetch.changed) changed"
    }

    public static var linkedText: String { "hmon now reads this Oura ring's nights. You can close this page." }
    public static var subscribesOnceLinked: Bool { true }
}

/// The answer of `POST /v1.1/hmon/oura/poll`: what each of the caller's links added.
public struct OuraPollAnswer: Encodable, Sendable {
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
