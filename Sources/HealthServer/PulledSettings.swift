import Foundation
import HealthConnectors
import HealthCore

/// How `hmon serve` reads one pulled source (`--public-url`, `--KIND-poll-minutes`; the API's address).
/// A server is given one for each source it reads (`ServerConfiguration.pulledSources`).
public struct PulledSettings<Source: PulledSource>: PulledSourceSettings {
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

    public var linkKind: PushLinkKind { Source.linkKind }
}

/// The settings of one pulled source, whichever it is: the server serves a source of `PulledSources` when
/// it is given its settings.
public protocol PulledSourceSettings: Sendable {
    /// The kind of link of the source these settings read.
    var linkKind: PushLinkKind { get }
}
