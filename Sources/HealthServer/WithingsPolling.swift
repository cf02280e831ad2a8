import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import Logging
import ServiceLifecycle
import Synchronization

/// How `hmon serve` reads Withings (`--public-url`, `--withings-poll-minutes`; the API's address).
public struct WithingsSettings: Sendable {
    /// Withings' API, over the HTTP client the executable wires in.
    public var api: WithingsAPI
    /// Where the links' client secrets and tokens are (`WithingsLinkFiles`).
    public var files: WithingsLinkFiles
    /// How often every link is read, with `lastupdate`: a safety net beside the notifications, and the only
    /// way without a public URL.
    public var pollInterval: Duration

    public init(api: WithingsAPI, files: WithingsLinkFiles, pollInterval: Duration = .seconds(15 * 60)) {
        self.api = api
        self.files = files
        self.pollInterval = pollInterval
    }
}

/// The server's Withings background work: at start, subscribes the authorized links to notifications at
/// `--public-url` (when there is one), then reads every link once and again each `pollInterval` until the
/// server stops.
struct WithingsPolling: Service {
    let sync: WithingsSync
    let settings: WithingsSettings
    let publicURL: URL?
    /// Opened once the server accepts connections: Withings checks a callback URL before it subscribes it.
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

    /// Subscribes the links not subscribed yet at `--public-url` (each round, so one refused earlier is tried
    /// again); nothing without a public URL.
    func subscribe() async {
        if let publicURL {
            let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
            do {
                for (id, problem) in try await sync.subscribeAll(callbackURL: { base + $0.callbackPath }) {
                    if let problem {
                        logger.warning("Withings link \(id): notifications not subscribed: \(problem); polling every \(settings.pollInterval)")
                    } else {
                        logger.info("Withings link \(id): subscribed to notifications at \(base)\(WithingsRoutes.prefix)…")
                    }
                }
            } catch {
                logger.warning("Withings: cannot subscribe: \(error)")
            }
        }
    }

    /// Reads every link (at start and at each interval) and logs what happened.
    func fetch() async {
        do {
            report(try await sync.fetchAll(), asked: false)
        } catch {
            logger.warning("Withings: cannot read the links: \(error)")
        }
    }

    /// Reads one link (right after its authorization) and logs what happened.
    func fetch(linkID: String) async {
        report([await sync.fetch(linkID: linkID)], asked: true)
    }

    /// Logs each fetch: its problem, the groups it refused, what it added (always when someone asked).
    func report(_ fetches: [WithingsFetch], asked: Bool) {
        for fetch in fetches {
            // A group Withings dated impossibly (or with an impossible figure) is skipped, never fatal: said here.
            if fetch.refused > 0 {
                logger.warning("Withings link \(fetch.linkID): \(fetch.skipped.joined(separator: "; "))")
            }
            if let problem = fetch.problem {
                logger.warning("Withings link \(fetch.linkID): \(problem)")
            } else if fetch.added > 0 || asked {
                logger.info("Withings link \(fetch.linkID): \(fetch.added) new weigh-in\(fetch.added == 1 ? "" : "s")")
            }
        }
    }
}

/// Whether the server accepts connections yet: opened once, waited for by background work that needs it.
final class ServerListening: Sendable {
    private let isOpen = Atomic<Bool>(false)

    func open() { isOpen.store(true, ordering: .releasing) }

    /// Returns once the server listens; throws when the task is cancelled first (the server failed to start).
    func wait() async throws {
        while !isOpen.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(20)) }
    }
}
