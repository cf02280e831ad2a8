import HealthCore
import HealthModel

/// What one fetch of a Withings link did, for the server's log and the poll route's answer.
public struct WithingsFetch: PulledFetch {
    public var linkID: String
    public var added = 0
    public var alreadyThere = 0
    public var skipped: [String] = []
    /// Measure groups refused for a date outside the window or a figure no reading may hold (named in `skipped`).
    public var refused = 0
    /// Why the link was not read (not authorized yet, refused by Withings); nil when it was.
    public var problem: String?

    public init(linkID: String) { self.linkID = linkID }

    public var arrival: LinkArrival {
        if let problem { return .failedRead(problem) }
        return LinkArrival(readings: [ReadingKind.weight.name: added], refusals: skipped)
    }
}
