import ArgumentParser
import Foundation
import HealthConnectors
import HealthCore
import HealthServer
import HMonCommandLine
import RemoteClient

/// How `hmon serve` reads one pulled source: `--KIND-poll-minutes`, and its API's address (hidden: the real
/// service unless a test points it at its fixture server, the only difference).
struct PulledServeOptions<Source: PulledSource>: ParsableArguments {
    @Option(name: .customLong(PulledLinkText<Source>().pollOption),
            help: ArgumentHelp(PulledLinkText<Source>().pollOptionHelp, valueName: "minutes"))
    var pollMinutes = PulledLinkText<Source>().defaultPollMinutes

    @Option(name: .customLong(PulledLinkText<Source>().apiOption), help: ArgumentHelp(PulledLinkText<Source>().apiOptionHelp, visibility: .hidden))
    var apiURL = Source.Endpoints.real.api.absoluteString

    /// Called by `ServeCommand.validate`, in its order of checks.
    func check() throws {
        let text = PulledLinkText<Source>()
        guard (1...1440).contains(pollMinutes) else { throw ValidationError(text.badPollMinutes(pollMinutes)) }
        guard let api = URL(string: apiURL), ["http", "https"].contains(api.scheme ?? ""), api.host != nil else {
            throw ValidationError(text.badAPIURL(apiURL))
        }
    }

    /// The settings the server reads the source with, its links' files in `paths`.
    func settings(paths: HMonPaths) -> any PulledSourceSettings {
        let endpoints = Source.Endpoints(api: URL(string: apiURL)!, pages: Source.Endpoints.real.pages)
        return PulledSettings(api: Source(endpoints: endpoints, transport: PulledHTTPTransport()), files: PulledLinkFiles<Source.Link>(paths: paths),
                              pollInterval: .seconds(pollMinutes * 60))
    }
}
