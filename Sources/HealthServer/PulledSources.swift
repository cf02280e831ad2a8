import HealthCore
import HealthConnectors
import Hummingbird
import Logging
import ServiceLifecycle

/// What the server does with each source of `PulledSources` (the list is beside the connectors): it routes
/// and polls each one it has settings for, and its request log hides their links' secrets.
extension PulledSources {
    /// The links' path prefixes, `/KIND/`, each followed by a secret.
    static var prefixes: [String] { served.map { $0.routePrefix } }

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
