import Foundation
import HealthConnectors
import Logging
import ServiceLifecycle
import Synchronization

/// The server's background work for one pulled source: once the server listens, keeps the authorized
/// links subscribed at `--public-url` (when there is one), then reads every link, again each
/// `pollInterval` until the server stops.
struct PulledPolling<Source: ServedPulledSource>: Service {
    let sync: PulledSync<Source>
    let settings: PulledSettings<Source>
    let publicURL: URL?
    /// Opened once the server accepts connections: the source checks a callback URL before it subscribes it.
    let listening: ServerListening
    let logger: Logger

    private var sourceName: String { Source.Link.sourceName }

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

    /// Sees to the links' subscriptions at `--public-url` (each round, so one refused earlier is tried
    /// again); nothing without a public URL.
    func subscribe() async {
        guard let publicURL else { return }
        let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        do {
            for line in try await Source.subscribe(sync, base: base, pollInterval: settings.pollInterval) {
                switch line.level {
                case .info: logger.info("\(line.text)")
                case .warning: logger.warning("\(line.text)")
                }
            }
        } catch {
            logger.warning("\(sourceName): cannot subscribe: \(error)")
        }
    }

    /// Reads every link (at start and at each interval) and logs what happened.
    func fetch() async {
        do {
            report(try await sync.fetchAll(), asked: false)
        } catch {
            logger.warning("\(sourceName): cannot read the links: \(error)")
        }
    }

    /// Reads one link (right after its authorization) and logs what happened.
    func fetch(linkID: String) async {
        report([await sync.fetch(linkID: linkID)], asked: true)
    }

    /// Logs each read: what it refused, its problem, or what it added (always when someone asked).
    func report(_ fetches: [Source.Fetch], asked: Bool) {
        for fetch in fetches {
            // What the source sent that no reading may hold is skipped, never fatal: said here.
            for warning in Source.warnings(fetch) { logger.warning("\(sourceName) link \(fetch.linkID): \(warning)") }
            if let problem = fetch.problem {
                logger.warning("\(sourceName) link \(fetch.linkID): \(problem)")
            } else if Source.isNews(fetch) || asked {
                logger.info("\(sourceName) link \(fetch.linkID): \(Source.summary(fetch))")
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
