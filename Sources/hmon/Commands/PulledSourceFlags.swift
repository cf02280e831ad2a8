import ArgumentParser
import HealthConnectors
import HealthCore
import HealthServer

/// The flags of each pulled source, for `hmon link add` and `hmon serve`. ArgumentParser declares options
/// one property at a time, so each source of `PulledSources.all` has one line in each list here;
/// `PulledSourcesRegistryTests` fails when one is missing.
struct PulledLinkFlags: ParsableArguments {
    @OptionGroup var withings: PulledEndpointOptions<WithingsAPI>
    @OptionGroup var oura: PulledEndpointOptions<OuraAPI>

    private var each: [any ParsableArguments] { [withings, oura] }

    /// Where the source is, as its hidden options say; nil when one is not an address.
    func endpoints<Source: PulledSource>(of _: Source.Type) -> Source.Endpoints? {
        each.lazy.compactMap { $0 as? PulledEndpointOptions<Source> }.first?.endpoints
    }
}

struct PulledServeFlags: ParsableArguments {
    @OptionGroup var withings: PulledServeOptions<WithingsAPI>
    @OptionGroup var oura: PulledServeOptions<OuraAPI>

    private var each: [any ParsableArguments] { [withings, oura] }

    /// Each source's options, in the order of `PulledSources.all`.
    func check() throws {
        for source in PulledSources.all { try check(source) }
    }

    private func check<Source: PulledSource>(_: Source.Type) throws {
        try each.lazy.compactMap { $0 as? PulledServeOptions<Source> }.first?.check()
    }

    /// The settings of every source, in the order of `PulledSources.all`.
    func settings(paths: HMonPaths) -> [any PulledSourceSettings] {
        PulledSources.all.compactMap { settings(of: $0, paths: paths) }
    }

    private func settings<Source: PulledSource>(of _: Source.Type, paths: HMonPaths) -> (any PulledSourceSettings)? {
        each.lazy.compactMap { $0 as? PulledServeOptions<Source> }.first?.settings(paths: paths)
    }
}
