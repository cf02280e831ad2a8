import Foundation
import HealthConnectors

/// How `hmon serve` reads one pulled source (`--public-url`, `--withings-poll-minutes`,
/// `--oura-poll-minutes`; the API's address).
public struct PulledSettings<Source: PulledSource>: Sendable {
    /// The source's API, over the HTTP client the executable wires in.
    public var api: Source
    /// Where the links' client secrets and tokens are.
    public var files: PulledLinkFiles<Source.Link>
    /// How often every link is read: a safety net beside the notifications, and the only way without a public URL.
    public var pollInterval: Duration

    public init(api: Source, files: PulledLinkFiles<Source.Link>, pollInterval: Duration = Source.defaultPollInterval) {
        self.api = api
        self.files = files
        self.pollInterval = pollInterval
    }
}

/// How `hmon serve` reads Withings.
public typealias WithingsSettings = PulledSettings<WithingsAPI>
/// How `hmon serve` reads Oura.
public typealias OuraSettings = PulledSettings<OuraAPI>
