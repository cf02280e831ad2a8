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

    /// Reasons counted by why, as an answer gives them, as refusal lines: "why", or "why (3)" for several;
    /// `prefix` marks what was not a refusal ("skipped: ").
    public static func lines(_ counted: [String: Int], prefix: String = "") -> [String] {
        counted.sorted { $0.key < $1.key }.map { why, count in prefix + why + (count > 1 ? " (\(count))" : "") }
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

/// The sync doctor's judgements of a link, the same for `hmon sources` and its server view.
///
/// A link is silent when nothing came by it for a day: phone apps sync at least daily (Health Connect's
/// periodic work, openScale on each weigh-in, a pulled source's links on their notifications and the
/// server's poll), so a day of silence is a sync that stopped (an app killed by battery saving, a revoked
/// permission, a changed URL), not a quiet day.
extension LinkHealth {
    /// How long a link may be quiet before it is marked silent.
    public static let silentAfter: TimeInterval = 24 * 3600

    /// Whether nothing came by the link for `silentAfter` (counted from when it was made if nothing ever came).
    public func isSilent(now: Date) -> Bool {
        now.timeIntervalSince(lastArrivalAt ?? link.createdAt) > Self.silentAfter
    }

    /// The days of the last `days` (ending today, UTC) with no reading at all, from the day the link was made on.
    public func daysWithNone(days: Int, now: Date) -> [Int64] {
        let today = Self.day(of: now)
        let first = max(today - Int64(days) + 1, Self.day(of: link.createdAt))
        let withReadings = Set(self.days.filter { $0.readings > 0 }.map(\.day))
        return first > today ? [] : (first...today).filter { !withReadings.contains($0) }
    }

    /// A quiet spell as a person says it: "5 min", "3 h", "2 days".
    public static func spanText(_ seconds: TimeInterval) -> String {
        let minutes = Int(max(0, seconds) / 60)
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" }
        return "\(minutes / (24 * 60)) days"
    }

    /// Readings per kind, by the kind's people's name ("Active energy"; a name hmon does not know, such as a
    /// pulled source's "readings", as it is), most first.
    public var readingsByKind: [(kind: String, readings: Int)] {
        var totals: [String: Int] = [:]
        for count in days {
            totals[ReadingKind.allCases.first { $0.name == count.kind }?.label ?? count.kind, default: 0] += count.readings
        }
        return totals.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }
}

/// A link's health as scripts read it: `hmon sources --json` and `GET /v1.1/hmon/views/sources`.
public struct LinkHealthView: Codable, Sendable, Equatable {
    public struct Refusal: Codable, Sendable, Equatable {
        public var at: String
        public var why: String
    }

    public var id: String
    public var kind: String
    public var user: String
    public var made: String
    public var lastArrival: String?
    public var silent: Bool
    /// New or changed readings over the days asked, by the kind's people's name.
    public var readings: [String: Int]
    public var daysWithNone: Int
    /// Newest first.
    public var refusals: [Refusal]

    enum CodingKeys: String, CodingKey {
        case id, kind, user, made, lastArrival = "last_arrival", silent, readings, daysWithNone = "days_with_none", refusals
    }

    /// Written out whole, `last_arrival` as null when nothing came: a script reads every key of every link.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(user, forKey: .user)
        try container.encode(made, forKey: .made)
        try container.encode(lastArrival, forKey: .lastArrival)
        try container.encode(silent, forKey: .silent)
        try container.encode(readings, forKey: .readings)
        try container.encode(daysWithNone, forKey: .daysWithNone)
        try container.encode(refusals, forKey: .refusals)
    }

    public init(_ health: LinkHealth, days: Int, now: Date) {
        let times = ISO8601DateFormatter()
        id = health.link.id
        kind = health.link.kind.rawValue
        user = health.link.userName
        made = times.string(from: health.link.createdAt)
        lastArrival = health.lastArrivalAt.map { times.string(from: $0) }
        silent = health.isSilent(now: now)
        readings = Dictionary(uniqueKeysWithValues: health.readingsByKind.map { ($0.kind, $0.readings) })
        daysWithNone = health.daysWithNone(days: days, now: now).count
        refusals = health.refusals.map { Refusal(at: times.string(from: $0.at), why: $0.why) }
    }
}

extension LinkHealthView {
    /// Whether the link is silent at `now`, judged from its last arrival (or when it was made) rather than the
    /// `silent` it was sent with, which a kept answer may have judged long ago.
    public func isSilent(now: Date) -> Bool {
        let times = ISO8601DateFormatter()
        guard let since = times.date(from: lastArrival ?? made) else { return silent }
        return now.timeIntervalSince(since) > LinkHealth.silentAfter
    }

    /// How the Devices screen says a link's state: "SILENT for 2 days", "SILENT: nothing ever came", "3 h ago ·
    /// Weight 7, Steps 7" (its readings over the days asked), "nothing yet".
    public func stateText(now: Date) -> String {
        let last = lastArrival.flatMap(ISO8601DateFormatter().date(from:))
        let counts = readings.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        switch (last, isSilent(now: now)) {
        case (nil, true): return "SILENT: nothing ever came"
        case (nil, false): return "nothing yet"
        case (let last?, true): return "SILENT for \(LinkHealth.spanText(now.timeIntervalSince(last)))"
        case (let last?, false): return "\(LinkHealth.spanText(now.timeIntervalSince(last))) ago" + (counts.isEmpty ? "" : " · " + counts)
        }
    }
}
