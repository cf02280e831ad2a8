import HealthCore

/// Every source hmon pulls readings from with the person's own app, in one list: what `hmon serve` routes and
/// polls, what its request log hides the secret of, what the all-links poll answers and a remote dashboard's R
/// asks, and what `hmon link add`, `hmon link list`, `hmon link revoke` and `hmon serve`'s options speak of.
/// A source is its connector folder (a `ServedPulledSource`) and its line here (and its flags' line in `hmon`,
/// `PulledSourceFlags`). Kept beside the connectors rather than in the server so the remote client reads the
/// same list.
public enum PulledSources {
    /// The pulled sources, in the order the command line and the all-links poll name them.
    public static var served: [any ServedPulledSource.Type] { [WithingsAPI.self, OuraAPI.self] }

    /// The same list, as what the command line asks of each.
    public static var all: [any PulledSource.Type] { served.map { $0 } }

    /// The source that reads links of this kind; nil for a kind apps push to.
    public static func source(of kind: PushLinkKind) -> (any PulledSource.Type)? {
        all.first { $0.linkKind == kind }
    }
}
