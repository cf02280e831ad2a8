import Foundation
import GRDB
import HealthCore
import HealthModel

/// What came by each push or pulled link (`LinkArrival`), for the sync doctor.
extension LocalStore {
    public func noteArrival(_ arrival: LinkArrival, linkID: String, at now: Date) async throws {
        let day = LinkHealth.day(of: now)
        try await write { db in
            if arrival.heardFrom {
                try db.execute(sql: "UPDATE push_links SET last_arrival_at = ? WHERE id = ?", arguments: [now.millisecondsSince1970, linkID])
                guard db.changesCount > 0 else { return }
            } else {
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM push_links WHERE id = ?)", arguments: [linkID]) == true else { return }
            }
            for (kind, readings) in arrival.readings.sorted(by: { $0.key < $1.key }) where readings > 0 {
                try db.execute(sql: """
                    INSERT INTO link_arrivals (link_id, day, kind, readings) VALUES (?, ?, ?, ?)
                    ON CONFLICT (link_id, day, kind) DO UPDATE SET readings = readings + excluded.readings
                    """, arguments: [linkID, day, kind, readings])
            }
            try db.execute(sql: "DELETE FROM link_arrivals WHERE link_id = ? AND day < ?", arguments: [linkID, day - LinkHealth.daysKept])
            guard !arrival.refusals.isEmpty else { return }
            var number = try Int64.fetchOne(db, sql: "SELECT coalesce(max(number), 0) FROM link_refusals WHERE link_id = ?", arguments: [linkID]) ?? 0
            for why in LinkHealth.keptRefusals(arrival.refusals) {
                number += 1
                try db.execute(sql: "INSERT INTO link_refusals (link_id, number, at, why) VALUES (?, ?, ?, ?)",
                               arguments: [linkID, number, now.millisecondsSince1970, why])
            }
            try db.execute(sql: "DELETE FROM link_refusals WHERE link_id = ? AND number <= ?",
                           arguments: [linkID, number - Int64(LinkHealth.refusalsListed)])
        }
    }

    public func linkHealth(sinceDay: Int64) async throws -> [LinkHealth] {
        let links = try await pushLinks()
        return try await read { db in
            var days: [String: [LinkHealth.DayCount]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT link_id, day, kind, readings FROM link_arrivals WHERE day >= ? ORDER BY link_id, day, kind",
                                        arguments: [sinceDay]) {
                days[row["link_id"], default: []].append(LinkHealth.DayCount(day: row["day"], kind: row["kind"], readings: row["readings"]))
            }
            var refusals: [String: [LinkHealth.Refusal]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT link_id, at, why FROM link_refusals ORDER BY link_id, number DESC") {
                refusals[row["link_id"], default: []].append(LinkHealth.Refusal(at: Date(millisecondsSince1970: row["at"]), why: row["why"]))
            }
            var arrivals: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, last_arrival_at FROM push_links WHERE last_arrival_at IS NOT NULL") {
                arrivals[row["id"]] = row["last_arrival_at"]
            }
            return links.map { link in
                LinkHealth(link: link, lastArrivalAt: arrivals[link.id].map(Date.init(millisecondsSince1970:)),
                           days: days[link.id] ?? [], refusals: refusals[link.id] ?? [])
            }
        }
    }
}
