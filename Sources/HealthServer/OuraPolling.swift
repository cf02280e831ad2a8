import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import Logging
import ServiceLifecycle

/// How `hmon serve` reads Oura (`--public-url`, `--oura-poll-minutes`; the API's address).
public struct OuraSettings: Sendable {
    /// Oura's API, over the HTTP client the executable wires in.
    public var api: OuraAPI
    /// Where the links' client secrets and tokens are (`OuraLinkFiles`).
    public var files: OuraLinkFiles
    /// How often every link is read: a safety net beside the notifications, and the only way without a public URL.
    public var pollInterval: Duration

    public init(api: OuraAPI, files: OuraLinkFiles, pollInterval: Duration = .seconds(60 * 60)) {
        self.api = api
        self.files = files
        self.pollInterval = pollInterval
    }
}

/// The server's Oura background work: once the server listens, keeps the authorized links subscribed at
/// `--public-url` (when there is one; renewing subscriptions before they expire), then reads every link,
/// again each `pollInterval` until the server stops.
struct OuraPolling: Service {
    let sync: OuraSync
    let settings: OuraSettings
    let publicURL: URL?
    /// Opened once the server accepts connections: Oura checks a callback URL before it subscribes it.
    let listening: ServerListening
    let logger: Logger

    func run() async throws {
        // Ends when the server stops: its graceful shutdown cancels the waits.
        try? await cancelWhenGracefulShutdown {
            try await listening.wait()
            while !Task.isCancelled {
                await subscribe()
                await fetch()
                try await Task.sleep(for: settings.pollInterval)
            }
        }
    }

    /// Makes the missing subscriptions and renews those about to expire; nothing without a public URL.
    func subscribe() async {
        guard let publicURL else { return }
        let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        do {
            for result in try await sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
                if result.made + result.renewed > 0 {
                    let made = "\(result.made) subscription\(result.made == 1 ? "" : "s") made"
                    logger.info("Oura link \(result.linkID): \(made), \(result.renewed) renewed at \(base)\(OuraRoutes.prefix)…")
                }
                for problem in result.problems {
                    logger.warning("Oura link \(result.linkID): \(problem); polling every \(settings.pollInterval)")
                }
            }
        } catch {
            logger.warning("Oura: cannot subscribe: \(error)")
        }
    }

    /// Reads every link (at start and at each interval) and logs what happened.
    func fetch() async {
        do {
            report(try await sync.fetchAll(), asked: false)
        } catch {
            logger.warning("Oura: cannot read the links: \(error)")
        }
    }

    /// Reads one link (right after its authorization) and logs what happened.
    func fetch(linkID: String) async {
        report([await sync.fetch(linkID: linkID)], asked: true)
    }

    /// Logs each pull: its problem, or what it added (always when someone asked).
    func report(_ fetches: [OuraFetch], asked: Bool) {
        for fetch in fetches {
            if let problem = fetch.problem {
                logger.warning("Oura link \(fetch.linkID): \(problem)")
            } else if fetch.added + fetch.changed > 0 || asked {
                logger.info("Oura link \(fetch.linkID): \(fetch.added) new reading\(fetch.added == 1 ? "" : "s"), \(fetch.changed) changed")
            }
        }
    }
}
