import HealthCore
import Hummingbird

/// Every app that pushes readings to links of its own, in one list: what `hmon serve` routes, what its
/// request log hides the secret of, and what `hmon link add` asks about signing.
public enum PushSources {
    static var all: [any PushSource.Type] { [HealthAutoExportSource.self, HealthConnectSource.self, OpenScaleSource.self] }

    /// The apps' names and their links' kinds, as the command line's help lists them.
    public static var appNames: [String] { all.map { $0.appName } }
    public static var kinds: [PushLinkKind] { all.map { $0.kind } }

    /// The links' path prefixes, each followed by a secret.
    static var prefixes: [String] { all.map { $0.prefix } }

    /// Whether the app posting to links of this kind can sign its posts; nil for a kind no app posts to
    /// (a pulled source's links, `PulledSources`: `hmon serve` reads those accounts).
    public static func signing(of kind: PushLinkKind) -> PushSigning? {
        all.first { $0.kind == kind }?.signing
    }

    /// The kinds whose app signs its posts, for a message that names them.
    public static var signedKinds: [PushLinkKind] {
        all.filter { if case .byTheApp = $0.signing { true } else { false } }.map { $0.kind }
    }

    static func add(to router: Router<ServerContext>, links: any PushLinkStore, services: UserServices, configuration: ServerConfiguration) {
        for source in all { add(source, to: router, links: links, services: services, configuration: configuration) }
    }

    private static func add<Source: PushSource>(_: Source.Type, to router: Router<ServerContext>, links: any PushLinkStore,
                                                services: UserServices, configuration: ServerConfiguration) {
        PushRoutes<Source>(links: links, services: services, configuration: configuration).add(to: router)
    }
}
