import Foundation
import HealthModel

/// What one post or read by a link brought: readings per kind that were new or changed (a record sent again
/// as it was brings nothing) and what was refused, each as the answer named it.
///
/// Kept per link (`PushLinkStore.noteArrival`) for the sync doctor (`hmon sources`): a phone app that stopped
/// syncing, or whose records are refused, is found from hmon's side, not by reading each screen for gaps.
public struct LinkArrival: Sendable, Equatable {
    /// New or changed readings, by hmon's name of the kind ("weight", "steps").
    public var readings: [String: Int]
    /// Refusals as the answer gave them (`weight[2] (uuid bad-1): before 2000`).
    public var refusals: [String]

    /// Whether the app or source was heard from: a post, even one refused, or a read that worked. A read
    /// that failed (the source unreachable, its tokens refused) notes its problem without it, so the link
    /// still shows as silent.
    public var heardFrom: Bool

    public init(readings: [String: Int] = [:], refusals: [String] = [], heardFrom: Bool = true) {
        self.readings = readings
        self.refusals = refusals
        self.heardFrom = heardFrom
    }

    /// A body refused whole (no payload, a bad date in it): nothing came, and why.
    public static func refused(_ why: String) -> LinkArrival { LinkArrival(refusals: [why]) }

    /// A read of a pulled source that failed, and why.
    public static func failedRead(_ why: String) -> LinkArrival { LinkArrival(refusals: ["not read: " + why], heardFrom: false) }

    /// How many refusals of one arrival are kept; the rest are counted in the last line.
    public static let refusalsKept = 20
}

/// A link's health as the sync doctor shows it: when something last came, what came on each day, what was
/// refused lately.
public struct LinkHealth: Sendable, Equatable {
    public struct DayCount: Sendable, Equatable {
        /// Days since 1970-01-01, UTC: the server's day, as the link's arrivals are noted.
        public var day: Int64
        public var kind: String
        public var readings: Int

        public init(day: Int64, kind: String, readings: Int) {
            self.day = day
            self.kind = kind
            self.readings = readings
        }
    }

    public struct Refusal: Sendable, Equatable {
        public var at: Date
        public var why: String

        public init(at: Date, why: String) {
            self.at = at
            self.why = why
        }
    }

    public var link: PushLink
    /// When a post or read last kept or refused something; nil if nothing ever came.
    public var lastArrivalAt: Date?
    /// Readings per day and kind from the day asked on, oldest first.
    public var days: [DayCount]
    /// The latest refusals, newest first (at most `LinkHealth.refusalsListed`).
    public var refusals: [Refusal]

    public init(link: PushLink, lastArrivalAt: Date?, days: [DayCount], refusals: [Refusal]) {
        self.link = link
        self.lastArrivalAt = lastArrivalAt
        self.days = days
        self.refusals = refusals
    }

    /// The most refusals kept per link, newest first.
    public static let refusalsListed = 20
    /// Days of arrivals kept per link; older ones are dropped as new ones are noted.
    public static let daysKept: Int64 = 90

    /// What is kept of one arrival's refusals: the first `LinkArrival.refusalsKept`, each cut to 300
    /// characters, and a line counting the rest.
    public static func keptRefusals(_ refusals: [String]) -> [String] {
        var kept = refusals.prefix(LinkArrival.refusalsKept).map { $0.count > 300 ? String($0.prefix(299)) + "…" : $0 }
        if refusals.count > kept.count { kept.append("and \(refusals.count - kept.count) more refused in the same post") }
        return kept
    }

    /// The UTC day of a time, as arrivals are counted.
    public static func day(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
