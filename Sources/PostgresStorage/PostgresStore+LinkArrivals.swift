import Foundation
import HealthCore
import HealthModel
import PostgresNIO

/// `LocalStore+LinkArrivals` on PostgreSQL.
extension PostgresStore {
    public func noteArrival(_ arrival: LinkArrival, linkID: String, at now: Date) async throws {
        let day = LinkHealth.day(of: now)
        let at = now.millisecondsSince1970
        try await write { db in
            // Locks the link's row: two arrivals at once number their refusals one after the other.
            let stamp: Int64? = arrival.heardFrom ? at : nil
            guard try await db.count("""
                UPDATE push_links SET last_arrival_at = coalesce(\(stamp), last_arrival_at) WHERE id = \(linkID) RETURNING 1
                """) > 0 else { return }
            for (kind, readings) in arrival.readings.sorted(by: { $0.key < $1.key }) where readings > 0 {
                try await db.run("""
                    INSERT INTO link_arrivals AS a (link_id, day, kind, readings) VALUES (\(linkID), \(day), \(kind), \(Int64(readings)))
                    ON CONFLICT (link_id, day, kind) DO UPDATE SET readings = a.readings + excluded.readings
                    """)
            }
            let oldest = day - LinkHealth.daysKept
            try await db.run("DELETE FROM link_arrivals WHERE link_id = \(linkID) AND day < \(oldest)")
            guard !arrival.refusals.isEmpty else { return }
            var number = try await db.one("SELECT coalesce(max(number), 0) AS number FROM link_refusals WHERE link_id = \(linkID)")?
                .value("number", Int64.self) ?? 0
            for why in LinkHealth.keptRefusals(arrival.refusals) {
                number += 1
                try await db.run("INSERT INTO link_refusals (link_id, number, at, why) VALUES (\(linkID), \(number), \(at), \(why))")
            }
            let dropped = number - Int64(LinkHealth.refusalsListed)
            try await db.run("DELETE FROM link_refusals WHERE link_id = \(linkID) AND number <= \(dropped)")
        }
    }

    public func linkHealth(sinceDay: Int64) async throws -> [LinkHealth] {
        let links = try await pushLinks()
        return try await read { db in
            var days: [String: [LinkHealth.DayCount]] = [:]
            for row in try await db.all("""
                SELECT link_id, day, kind, readings FROM link_arrivals WHERE day >= \(sinceDay) ORDER BY link_id COLLATE "C", day, kind COLLATE "C"
                """) {
                days[try row.value("link_id"), default: []].append(
                    LinkHealth.DayCount(day: try row.value("day"), kind: try row.value("kind"),
                                        readings: Int(clamping: try row.value("readings", Int64.self))))
            }
            var refusals: [String: [LinkHealth.Refusal]] = [:]
            for row in try await db.all("SELECT link_id, at, why FROM link_refusals ORDER BY link_id COLLATE \"C\", number DESC") {
                refusals[try row.value("link_id"), default: []].append(
                    LinkHealth.Refusal(at: Date(millisecondsSince1970: try row.value("at")), why: try row.value("why")))
            }
            var arrivals: [String: Int64] = [:]
            for row in try await db.all("SELECT id, last_arrival_at FROM push_links WHERE last_arrival_at IS NOT NULL") {
                arrivals[try row.value("id")] = try row.value("last_arrival_at", Int64.self)
            }
            return links.map { link in
                LinkHealth(link: link, lastArrivalAt: arrivals[link.id].map(Date.init(millisecondsSince1970:)),
                           days: days[link.id] ?? [], refusals: refusals[link.id] ?? [])
            }
        }
    }
}
