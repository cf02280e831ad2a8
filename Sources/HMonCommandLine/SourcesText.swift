import Foundation
import HealthCore
import HealthModel

/// `hmon sources`: the sync doctor's words for each link, what came by it over the last days, and whether it
/// has gone silent.
///
/// A link is silent when nothing came by it for a day: phone apps sync at least daily (Health Connect's
/// periodic work, openScale on each weigh-in, Withings and Oura on their notifications and the server's
/// poll), so a day of silence is a sync that stopped (an app killed by battery saving, a revoked
/// permission, a changed URL), not a quiet day.
public struct SourcesText {
    public var links: [LinkHealth]
    /// The days shown, ending today (UTC, as arrivals are counted).
    public var days: Int
    public var now: Date

    public init(links: [LinkHealth], days: Int, now: Date) {
        self.links = links
        self.days = days
        self.now = now
    }

    /// How long a link may be quiet before it is marked silent.
    public static let silentAfter: TimeInterval = 24 * 3600

    public func text(timeZone: TimeZone = .current) -> String {
        guard !links.isEmpty else { return "No links yet: `hmon link add KIND` makes one (health-connect, openscale, withings, oura, health-auto-export)." }
        return links.map { lines(of: $0, timeZone: timeZone).joined(separator: "\n") }.joined(separator: "\n")
    }

    /// Whether nothing came by the link for `silentAfter` (counted from when it was made if nothing ever came).
    public func isSilent(_ health: LinkHealth) -> Bool {
        now.timeIntervalSince(health.lastArrivalAt ?? health.link.createdAt) > Self.silentAfter
    }

    /// The days of the window with no reading at all, from the day the link was made on.
    public func daysWithNone(_ health: LinkHealth) -> [Int64] {
        let today = LinkHealth.day(of: now)
        let first = max(today - Int64(days) + 1, LinkHealth.day(of: health.link.createdAt))
        let withReadings = Set(health.days.filter { $0.readings > 0 }.map(\.day))
        return first > today ? [] : (first...today).filter { !withReadings.contains($0) }
    }

    /// Readings per kind over the window, by the kind's people's name, most first.
    public func readingsByKind(_ health: LinkHealth) -> [(kind: String, readings: Int)] {
        var totals: [String: Int] = [:]
        for count in health.days { totals[Self.label(count.kind), default: 0] += count.readings }
        return totals.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }

    private func lines(of health: LinkHealth, timeZone: TimeZone) -> [String] {
        let link = health.link
        var head = "\(link.kind.rawValue)  \(link.id)  \(link.userName)  "
        switch (health.lastArrivalAt, isSilent(health)) {
        case (nil, true): head += "SILENT: nothing ever came (made \(Self.time(link.createdAt, timeZone)))"
        case (nil, false): head += "nothing yet (made \(Self.time(link.createdAt, timeZone)))"
        case (let last?, true): head += "SILENT for \(Self.span(now.timeIntervalSince(last))) (last \(Self.time(last, timeZone)))"
        case (let last?, false): head += "last arrival \(Self.time(last, timeZone)) (\(Self.span(now.timeIntervalSince(last))) ago)"
        }
        let kinds = readingsByKind(health)
        let none = daysWithNone(health)
        var counts = "  last \(days) days: " + (kinds.isEmpty ? "no readings" : kinds.map { "\($0.kind) \($0.readings)" }.joined(separator: " · "))
        counts += " · days with none: \(none.count)"
        var result = [head, counts]
        if let newest = health.refusals.first {
            result.append("  refused lately: \(health.refusals.count) · newest \(Self.time(newest.at, timeZone)): \(newest.why)")
        }
        return result
    }

    /// A kind's name as people say it ("Active energy"); a name hmon does not know (a pulled source's
    /// "readings") as it is.
    static func label(_ name: String) -> String {
        ReadingKind.allCases.first { $0.name == name }?.label ?? name
    }

    static func time(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// "3 h", "2 days", "5 min".
    static func span(_ seconds: TimeInterval) -> String {
        let minutes = Int(max(0, seconds) / 60)
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" }
        return "\(minutes / (24 * 60)) days"
    }

    /// `--json`: one object per link, for scripts.
    public func json() throws -> String {
        let times = ISO8601DateFormatter()
        return try ListingJSON.text(links.map { health -> [String: Any] in
            [
                "id": health.link.id, "kind": health.link.kind.rawValue, "user": health.link.userName,
                "made": times.string(from: health.link.createdAt),
                "last_arrival": health.lastArrivalAt.map { times.string(from: $0) } ?? NSNull(),
                "silent": isSilent(health),
                "readings": Dictionary(uniqueKeysWithValues: readingsByKind(health).map { ($0.kind, $0.readings) }),
                "days_with_none": daysWithNone(health).count,
                "refusals": health.refusals.map { ["at": times.string(from: $0.at), "why": $0.why] },
            ]
        })
    }
}
