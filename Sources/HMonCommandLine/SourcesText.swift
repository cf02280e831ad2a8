import Foundation
import HealthCore
import HealthModel

/// `hmon sources`: the sync doctor's words for each link, what came by it over the last days, and whether it
/// has gone silent (`LinkHealth.isSilent`).
public struct SourcesText {
    /// A linked person's source order per family, as they chose it (a family absent keeps the default).
    public struct PersonOrder: Sendable {
        public var user: String
        public var chosen: [MeasurementFamily: SourceOrder]

        public init(user: String, chosen: [MeasurementFamily: SourceOrder]) {
            self.user = user
            self.chosen = chosen
        }
    }

    public var links: [LinkHealth]
    public var orders: [PersonOrder]
    /// The days shown, ending today (UTC, as arrivals are counted).
    public var days: Int
    public var now: Date

    /// The kinds `hmon link add` takes, as the message for no links names them.
    public var linkKinds: [String]

    public init(links: [LinkHealth], orders: [PersonOrder] = [], days: Int, now: Date, linkKinds: [String] = []) {
        self.links = links
        self.linkKinds = linkKinds
        self.orders = orders
        self.days = days
        self.now = now
    }

    public func text(timeZone: TimeZone = .current) -> String {
        guard !links.isEmpty else {
            return "No links yet: `hmon link add KIND` makes one" + (linkKinds.isEmpty ? "." : " (" + linkKinds.joined(separator: ", ") + ").")
        }
        let linkLines = links.map { lines(of: $0, timeZone: timeZone).joined(separator: "\n") }
        let orderLines = orders.flatMap { person in
            MeasurementFamily.allCases.map { family in Self.orderLine(user: person.user, family: family, order: person.chosen[family] ?? SourceOrder()) }
        }
        return (linkLines + (orderLines.isEmpty ? [] : ["Counted first when one measurement came by two ways:"] + orderLines))
            .joined(separator: "\n")
    }

    /// `  alice  weigh-ins: openScale › Withings › … (default)`.
    static func orderLine(user: String, family: MeasurementFamily, order: SourceOrder) -> String {
        "  \(user)  \(family.label): " + order.paths.filter(family.ways.contains).map(\.label).joined(separator: " › ")
            + (order.preferred == nil ? " (default)" : " (you chose \(order.preferred!.label))")
    }

    /// What `hmon sources prefer` did.
    public static func preferred(user: String, family: MeasurementFamily, order: SourceOrder, countedAgain: Int) -> String {
        let moved = switch countedAgain {
        case 0: "no reading changed places"
        case 1: "1 reading kept aside is counted in place of its twin"
        default: "\(countedAgain) readings kept aside are counted in place of their twins"
        }
        return "\(user)'s \(family.label) now count " + order.paths.filter(family.ways.contains).map(\.label).joined(separator: " › ")
            + ": \(moved)."
    }

    private func lines(of health: LinkHealth, timeZone: TimeZone) -> [String] {
        let link = health.link
        var head = "\(link.kind.rawValue)  \(link.id)  \(link.userName)  "
        switch (health.lastArrivalAt, health.isSilent(now: now)) {
        case (nil, true): head += "SILENT: nothing ever came (made \(Self.time(link.createdAt, timeZone)))"
        case (nil, false): head += "nothing yet (made \(Self.time(link.createdAt, timeZone)))"
        case (let last?, true): head += "SILENT for \(LinkHealth.spanText(now.timeIntervalSince(last))) (last \(Self.time(last, timeZone)))"
        case (let last?, false): head += "last arrival \(Self.time(last, timeZone)) (\(LinkHealth.spanText(now.timeIntervalSince(last))) ago)"
        }
        let kinds = health.readingsByKind
        var counts = "  last \(days) days: " + (kinds.isEmpty ? "no readings" : kinds.map { "\($0.kind) \($0.readings)" }.joined(separator: " · "))
        counts += " · days with none: \(health.daysWithNone(days: days, now: now).count)"
        var result = [head, counts]
        if let newest = health.refusals.first {
            result.append("  refused lately: \(health.refusals.count) · newest \(Self.time(newest.at, timeZone)): \(newest.why)")
        }
        return result
    }

    static func time(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// `--json`: one object per link, for scripts, as the server's view gives it (`LinkHealthView`).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(links.map { LinkHealthView($0, days: days, now: now) }), as: UTF8.self)
    }
}
