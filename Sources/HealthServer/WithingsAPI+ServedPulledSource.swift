import Foundation
import HealthConnectors

/// What the server says of Withings: notifications subscribed once per public URL, weigh-ins counted.
extension WithingsAPI: ServedPulledSource {
    static func pollAnswer(_ fetches: [WithingsFetch]) -> WithingsPollAnswer { WithingsPollAnswer(fetches) }

    static func subscribe(_ polling: WithingsPolling, base: String) async throws {
        for (id, problem) in try await polling.sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
            if let problem {
                polling.logger.warning("Withings link \(id): notifications not subscribed: \(problem); polling every \(polling.settings.pollInterval)")
            } else {
                polling.logger.info("Withings link \(id): subscribed to notifications at \(base)\(WithingsRoutes.prefix)…")
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
