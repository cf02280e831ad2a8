import ArgumentParser
import Foundation
import HealthConnectors
import HMonCommandLine

/// Where `hmon link add KIND` finds one pulled source: the real service unless a test points it at its
/// fixture server (`--KIND-api-url`, `--KIND-PAGES-url`, hidden).
struct PulledEndpointOptions<Source: PulledSource>: ParsableArguments {
    @Option(name: .customLong(PulledLinkText<Source>().apiOption), help: ArgumentHelp(PulledLinkText<Source>().apiOptionHelp, visibility: .hidden))
    var apiURL = Source.Endpoints.real.api.absoluteString

    @Option(name: .customLong(PulledLinkText<Source>().pagesOption), help: ArgumentHelp(PulledLinkText<Source>().pagesOptionHelp, visibility: .hidden))
    var pagesURL = Source.Endpoints.real.pages.absoluteString

    /// Nil when either is not an address with a host.
    var endpoints: Source.Endpoints? {
        guard let api = URL(string: apiURL), api.host != nil, let pages = URL(string: pagesURL), pages.host != nil else { return nil }
        return Source.Endpoints(api: api, pages: pages)
    }
}
