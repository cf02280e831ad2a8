import HealthCore
import HealthConnectors
import Hummingbird
import Logging
import ServiceLifecycle

/// Every source `hmon serve` pulls readings from with the person's own app, in one list: what the server
/// routes and polls, what its request log hides the secret of, what the all-links poll answers, and what
/// `hmon link add`, `hmon link list`, `hmon link revoke` and `hmon serve`'s options speak of. A source is its
/// connector folder (a `ServedPulledSource`) and its line here (and its flags' line in `hmon`).
public enum PulledSources {
    static var served: [any ServedPulledSource.Type] { [WithingsAPI.self, OuraAPI.self] }

    /// The pulled sources, in the order the command line and the all-links poll name them.
    public static var all: [any PulledSource.Type] { served.map { $0 } }

    /// The links' path prefixes, `/KIND/`, each followed by a secret.
    static var prefixes: [String] { served.map { $0.routePrefix } }

    /// The source that reads links of this kind; nil for a kind apps push to.
    public static func source(of kind: PushLinkKind) -> (any PulledSource.Type)? {
        all.first { $0.linkKind == kind }
    }

    /// Adds the routes of each source the configuration has settings for and answers its background work,
    /// in the list's order.
    static func serve(on router: Router<ServerContext>, store: any PushLinkStore, services: UserServices, configuration: ServerConfiguration,
                      listening: ServerListening, logger: Logger) -> [any LinkedSourcePoll & Service] {
        served.compactMap { $0.serve(on: router, store: store, services: services, configuration: configuration, listening: listening, logger: logger) }
    }
}

extension ServedPulledSource {
    /// Its routes and polling, when the configuration reads this source; nil when it does not.
    static func serve(on router: Router<ServerContext>, store: any PushLinkStore, services: UserServices, configuration: ServerConfiguration,
                      listening: ServerListening, logger: Logger) -> (any LinkedSourcePoll & Service)? {
        guard let settings = configuration.pulledSources.lazy.compactMap({ $0 as? PulledSettings<Self> }).first else { return nil }
        let sync = PulledSync(links: store, services: services, api: settings.api, files: settings.files, clock: configuration.clock)
        let polling = PulledPolling(sync: sync, settings: settings, publicURL: configuration.publicURL, listening: listening, logger: logger)
        let shared = PulledLinkRoutes(store: store, polling: polling, configuration: configuration)
        shared.addCallbackRoutes(to: router)
        shared.addPollRoute(to: router)
        return polling
    }
}
