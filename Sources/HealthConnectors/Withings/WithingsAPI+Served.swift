import Foundation
import HealthCore

/// What the server says of Withings: its check of a link's callback, its notifications, subscribed once per
/// public URL, weigh-ins counted.
///
/// Beside the routes every pulled link has (the authorization's return at `GET /withings/{secret}`,
/// `POST /v1.1/hmon/withings/poll`):
/// - `HEAD /withings/{secret}`: Withings' check of the callback URL before it subscribes it: 200.
/// - `POST /withings/{secret}`: a notification (`userid=…&appli=1&startdate=…&enddate=…`), answered 200 at
///   once; the link's new measure groups are fetched right after.
extension WithingsAPI: ServedPulledSource {
    public static var callbackMethods: [PulledCallback.Method] { [.head, .post] }
    public static var callbackBody: PulledCallback.Body { .form }

    public static func answer(_ callback: PulledCallback, link: WithingsLink) -> PulledCallback.Answer {
        // Only a weight notification of this link's Withings account is acted on; any other is
        // acknowledged all the same, or Withings would retry it.
        if callback.method == .post, callback.form["appli"] == "1", let userid = callback.form["userid"], userid == link.tokens?.userid {
            return .read
        }
        return .acknowledged
    }

    public static func pollAnswer(_ fetches: [WithingsFetch]) -> WithingsPollAnswer { WithingsPollAnswer(fetches) }

    public static func subscribe(_ sync: WithingsSync, base: String, pollInterval: Duration) async throws -> [PulledLogLine] {
        try await sync.subscribeAll(callbackURL: { base + $0.callbackPath }).map { id, problem in
            if let problem {
                .warning("Withings link \(id): notifications not subscribed: \(problem); polling every \(pollInterval)")
            } else {
                .info("Withings link \(id): subscribed to notifications at \(base)\(routePrefix)…")
            }
        }
    }

    /// A group Withings dated impossibly (or with an impossible figure) is named.
    public static func warnings(_ fetch: WithingsFetch) -> [String] {
        fetch.refused > 0 ? [fetch.skipped.joined(separator: "; ")] : []
    }

    public static func isNews(_ fetch: WithingsFetch) -> Bool { fetch.added > 0 }

    public static func summary(_ fetch: WithingsFetch) -> String { "\(fetch.added) new weigh-in\(fetch.added == 1 ? "" : "s")" }

    public static var linkedText: String { "hmon now reads this Withings account's weigh-ins. You can close this page." }
    public static var subscribesOnceLinked: Bool { false }
}

/// The answer of `POST /v1.1/hmon/withings/poll`: what each of the caller's links added.
public struct WithingsPollAnswer: Encodable, Sendable {
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
