import Foundation
import HealthCore
import HealthModel
import SAMIContract
import Synchronization

/// What this client knows of the server's views (`HMonViews`): each view's last answer with its validator,
/// so asking again after a change costs a 304 when the view did not change; and whether the server has
/// views at all (an older `hmon serve`, another SAMI server: then screens are computed here from readings).
final class RemoteViews: Sendable {
    private struct State {
        var answers: [String: (etag: String, body: Data)] = [:]
        var missing = false
    }

    private let state = Mutex(State())
    /// Past this many distinct views (a long session paging through years) the kept answers start over.
    private let capacity = 64

    var missing: Bool { state.withLock { $0.missing } }
    func markMissing() { state.withLock { $0.missing = true } }

    func answer(for key: String) -> (etag: String, body: Data)? { state.withLock { $0.answers[key] } }

    func keep(_ body: Data, etag: String, for key: String) {
        state.withLock { state in
            if state.answers.count >= capacity { state.answers.removeAll(keepingCapacity: true) }
            state.answers[key] = (etag, body)
        }
    }
}

extension RemoteHealthService {
    /// Said once the server turns out to have no views, for the status bar.
    public var serverNotice: String? {
        if let waiting = writeWait.notice { return waiting }
        return views.missing ? "\(location) is an older server: screens are computed here from its readings (slower)" : nil
    }

    /// A view's data, or nil when the server has no views (a 404 for the first one asked; never asked again).
    func view<View: Codable & Sendable>(_ name: String, _ query: [(String, String)] = []) async throws -> View? {
        if views.missing { return nil }
        let path = HMonViews.prefix + "/" + name
        let key = ([path] + query.map { "\($0.0)=\($0.1)" }).joined(separator: "&")
        let kept = views.answer(for: key)
        let reply = try await authorizedReply("GET", path, query: query,
                                              headers: kept.map { ["If-None-Match": $0.etag] } ?? [:])
        let body: Data
        switch reply.status {
        case 304:
            guard let kept else { throw problem(reply, subject: .none) }
            body = kept.body
        case 200:
            body = reply.body
            if let etag = reply.header("ETag") { views.keep(body, etag: etag, for: key) }
        case 404:
            // A view names no device or reading that could be missing: a 404 is a server without the route.
            views.markMissing()
            return nil
        default:
            throw problem(reply, subject: .none)
        }
        return try decode(SAMI.DataEnvelope<View>.self, HTTPReply(status: 200, headers: reply.headers, body: body)).data
    }

    /// The sync doctor's view of the user's links. Asked apart from `view`: a server that has views but not
    /// this one (404) has no links to tell of, and its other views are still used.
    public func linkHealth(days: Int, now: Date) async throws -> [LinkHealthView] {
        if views.missing { return [] }
        let reply = try await authorizedReply("GET", HMonViews.prefix + "/sources", query: [("days", String(days))])
        switch reply.status {
        case 200: return try decode(SAMI.DataEnvelope<[LinkHealthView]>.self, reply).data
        case 404: return []
        default: throw problem(reply, subject: .none)
        }
    }

    /// The readings kept aside, asked apart from `view` as `linkHealth` is: an older server has none to tell of.
    public func asideReadings(from: Int64, to: Int64) async throws -> [AsideReading] {
        if views.missing { return [] }
        let reply = try await authorizedReply("GET", HMonViews.prefix + "/aside", query: [("from", String(max(0, from))),
                                                                                       ("to", String(min(to, HMonViews.latestTime)))])
        switch reply.status {
        case 200: return try decode(SAMI.DataEnvelope<[AsideReading]>.self, reply).data
        case 404: return []
        default: throw problem(reply, subject: .none)
        }
    }

    /// The query a day-span view takes: both days included, in the calendar's time zone.
    func span(_ days: ClosedRange<Day>, _ calendar: Calendar) -> [(String, String)] {
        [("from", days.lowerBound.description), ("to", days.upperBound.description), ("tz", calendar.timeZone.identifier)]
    }

    public func devicesOverview() async throws -> DevicesOverview {
        if let view: HMonViews.DevicesView = try await view("devices") { return view.overview }
        return try await devicesOverviewFromCalls()
    }

    public func weightSeries(days: ClosedRange<Day>, calendar: Calendar) async throws -> WeightSeries {
        if let view: HMonViews.WeightsView = try await view("weights", span(days, calendar)) {
            guard let series = view.series else { throw HealthError.serverError("the server at \(location) sent a weight view that ends before it starts") }
            return series
        }
        return try await weightSeriesFromReadings(days: days, calendar: calendar)
    }

    public func energySummary(for day: Day, now: Date, calendar: Calendar) async throws -> EnergySummary {
        let summaries = try await energySummaries(for: day...day, now: now, calendar: calendar)
        guard let summary = summaries.first, summary.day == day else {
            throw HealthError.serverError("the server at \(location) sent no energy balance for \(day)")
        }
        return summary
    }

    public func energySummaries(for days: ClosedRange<Day>, now: Date, calendar: Calendar) async throws -> [EnergySummary] {
        let query = span(days, calendar) + [("now", String(now.millisecondsSince1970))]
        if let view: HMonViews.EnergyView = try await view("energy", query) {
            guard let summaries = view.summaries else { throw HealthError.serverError("the server at \(location) sent an energy view this hmon cannot read: update hmon") }
            return summaries
        }
        var summaries: [EnergySummary] = []
        for offset in 0...days.lowerBound.days(to: days.upperBound) {
            summaries.append(try await energySummaryFromReadings(for: days.lowerBound.adding(days: offset), now: now, calendar: calendar))
        }
        return summaries
    }

    public func dailyTotals(days: ClosedRange<Day>, calendar: Calendar) async throws -> [Day: DayTotals] {
        if let view: HMonViews.DailyTotalsView = try await view("daily-totals", span(days, calendar)) { return view.totals }
        throw HealthError.unsupported("insights need hmon's views, which the server at \(location) lacks: run them where the store is (`hmon insights --db PATH`)")
    }

    public func readings(_ query: ReadingsQuery) async throws -> [Message] {
        if let limit = query.limit, limit < 1 { throw HealthError.invalidValue("limit \(limit) is not a positive number") }
        guard query.from < query.to else { return [] }
        var parameters = [("from", String(max(0, query.from))), ("to", String(min(query.to, HMonViews.latestTime))),
                          ("order", query.order == .asc ? "asc" : "desc")]
        if let field = query.field { parameters.append(("field", field)) }
        if let limit = query.limit { parameters.append(("limit", String(min(limit, HMonViews.maxReadings)))) }
        if let view: HMonViews.ReadingsView = try await view("readings", parameters) { return view.readings }
        return try await readingsDeviceByDevice(query)
    }

    /// The server counts them in its devices screen; only a server without screen views gets here, and its
    /// readings since then (up to the devices screen's cap) are counted on this side.
    public func readingCounts(since: Date) async throws -> [String: Int] {
        try await readings(ReadingsQuery(from: since.millisecondsSince1970, order: .desc, limit: DevicesScreenData.todayCap))
            .reduce(into: [:]) { counts, reading in counts[reading.sdid, default: 0] += 1 }
    }
}
