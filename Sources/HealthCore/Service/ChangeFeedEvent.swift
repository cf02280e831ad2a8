import HealthModel

/// What a server's change feed tells a dashboard (`HealthService.changes()`, `GET /v1.1/hmon/changes`).
public enum ChangeFeedEvent: Sendable, Equatable {
    /// The feed is open, for the first time or again after it dropped: what changed meanwhile was not told.
    case connected
    /// The user's data may have changed: reload what is on show. `kinds` says what changed, when the server
    /// knows (nil: anything may have).
    case changed(kinds: Set<ChangeKind>?)
    /// The feed dropped (the server stopped, the network went); it is being opened again, waiting longer
    /// each time up to a few seconds.
    case disconnected
    /// The server has no change feed (an older `hmon serve`, another SAMI server): poll instead. The
    /// stream ends after this.
    case unsupported
}
