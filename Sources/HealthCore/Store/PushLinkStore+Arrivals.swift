import Foundation
import HealthModel

/// What came by each push or pulled link (`LinkArrival`), for the sync doctor, written once over an
/// engine's statements.
extension PushLinkStore where Self: StatementEngine {
    public func noteArrival(_ arrival: LinkArrival, linkID: String, at now: Date) async throws {
        let day = LinkHealth.day(of: now)
        let at = now.millisecondsSince1970
        try await writingStatements { db in
            // Writes the link's row first: on PostgreSQL that locks it, so two arrivals at once number their
            // refusals one after the other (SQLite's one writer already does).
            let stamp: Int64? = arrival.heardFrom ? at : nil
            guard try db.changes("""
                UPDATE push_links SET last_arrival_at = coalesce(\(stamp), last_arrival_at) WHERE id = \(linkID) RETURNING 1
                """) > 0 else { return }
            for (kind, readings) in arrival.readings.sorted(by: { $0.key < $1.key }) where readings > 0 {
                try db.run("""
                    INSERT INTO link_arrivals (link_id, day, kind, readings) VALUES (\(linkID), \(day), \(kind), \(readings))
                    ON CONFLICT (link_id, day, kind) DO UPDATE SET readings = link_arrivals.readings + excluded.readings
                    """)
            }
            try db.run("DELETE FROM link_arrivals WHERE link_id = \(linkID) AND day < \(day - LinkHealth.daysKept)")
            guard !arrival.refusals.isEmpty else { return }
            var number = try db.one("SELECT coalesce(max(number), 0) AS number FROM link_refusals WHERE link_id = \(linkID)")?
                .integer("number") ?? 0
            for why in LinkHealth.keptRefusals(arrival.refusals) {
                number += 1
                try db.run("INSERT INTO link_refusals (link_id, number, at, why) VALUES (\(linkID), \(number), \(at), \(why))")
            }
            try db.run("DELETE FROM link_refusals WHERE link_id = \(linkID) AND number <= \(number - Int64(LinkHealth.refusalsListed))")
        }
    }

    public func linkHealth(sinceDay: Int64) async throws -> [LinkHealth] {
        let links = try await pushLinks()
        let (days, refusals, arrivals) = try await readingStatements { db in
            var days: [String: [LinkHealth.DayCount]] = [:]
            for row in try db.rows("""
                SELECT link_id, day, kind, readings FROM link_arrivals WHERE day >= \(sinceDay)
                ORDER BY link_id\(.bytewiseOrder), day, kind\(.bytewiseOrder)
                """) {
                days[try row.text("link_id"), default: []].append(
                    LinkHealth.DayCount(day: try row.integer("day"), kind: try row.text("kind"),
                                        readings: Int(clamping: try row.integer("readings"))))
            }
            var refusals: [String: [LinkHealth.Refusal]] = [:]
            for row in try db.rows("SELECT link_id, at, why FROM link_refusals ORDER BY link_id\(.bytewiseOrder), number DESC") {
                refusals[try row.text("link_id"), default: []].append(LinkHealth.Refusal(at: try row.date("at"), why: try row.text("why")))
            }
            var arrivals: [String: Date] = [:]
            for row in try db.rows("SELECT id, last_arrival_at FROM push_links WHERE last_arrival_at IS NOT NULL") {
                arrivals[try row.text("id")] = try row.date("last_arrival_at")
            }
            return (days, refusals, arrivals)
        }
        return links.map { link in
            LinkHealth(link: link, lastArrivalAt: arrivals[link.id], days: days[link.id] ?? [], refusals: refusals[link.id] ?? [])
        }
    }
}
