import Foundation
import HealthConnectors

/// What the server says of Oura: webhook subscriptions made and renewed, readings added and changed.
extension OuraAPI: ServedPulledSource {
    static func pollAnswer(_ fetches: [OuraFetch]) -> OuraPollAnswer { OuraPollAnswer(fetches) }

    /// Makes the missing subscriptions and renews those about to expire.
    static func subscribe(_ polling: OuraPolling, base: String) async throws {
        for result in try await polling.sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
            if result.made + result.renewed > 0 {
                let made = "\(result.made) subscription\(result.made == 1 ? "" : "s") made"
                polling.logger.info("Oura link \(result.linkID): \(made), \(result.renewed) renewed at \(base)\(OuraRoutes.prefix)…")
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
