import HealthCore

/// What one pull of an Oura link did, for the server's log and the poll route's answer.
public struct OuraFetch: PulledFetch {
    public var linkID: String
    public var added = 0
    public var alreadyThere = 0
    public var changed = 0
    public var skipped: [String] = []
    /// Readings refused for a date outside the window or a figure no reading may hold (named in `skipped`).
    public var refused = 0
    /// Why the link was not read (not authorized yet, refused by Oura, an answer not as documented); nil when it was.
    public var problem: String?

    public init(linkID: String) { self.linkID = linkID }

    public var arrival: LinkArrival {
        if let problem { return .failedRead(problem) }
        return LinkArrival(readings: ["readings": added + changed], refusals: skipped)
    }
}
