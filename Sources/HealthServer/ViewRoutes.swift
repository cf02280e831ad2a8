import Foundation
import HealthCore
import HealthModel
import Hummingbird
import NIOCore
import SAMIContract

/// `GET /v1.1/hmon/views/…`: each screen's data as one value, computed by the same service the local dashboard
/// uses, where the readings are (`HMonViews` has the shapes). A remote dashboard asks for what it shows
/// instead of the readings it is computed from, and scripts get the trend's input, a day's energy balance
/// or the day sums without recomputing them.
///
/// Every answer carries an `ETag` (a hash of the body); a request with a matching `If-None-Match` gets
/// 304 and no body, so a dashboard that asks again after a change event pays only for views that changed.
/// A view that does not read the server's clock is kept while the store is unchanged (`ViewAnswers`).
struct ViewRoutes: Sendable {
    let api: APIRoutes

    /// The most days one view spans: ten years of weights or day sums (the insights read one), a year of
    /// energy balances (each day is a query of its own).
    static let maxDays = 3_660
    static let maxEnergyDays = 366

    func add(to api: RouterGroup<ServerContext>) {
        api.get("hmon/views/devices") { request, context in try await devices(request, context) }
        api.get("hmon/views/weights") { request, context in try await weights(request, context) }
        api.get("hmon/views/trend") { request, context in try await trend(request, context) }
        api.get("hmon/views/energy") { request, context in try await energy(request, context) }
        api.get("hmon/views/daily-totals") { request, context in try await dailyTotals(request, context) }
        api.get("hmon/views/readings") { request, context in try await readings(request, context) }
        api.get("hmon/views/hrv") { request, context in try await hrv(request, context) }
        api.get("hmon/views/sleep") { request, context in try await sleep(request, context) }
        api.get("hmon/views/sources") { request, context in try await sources(request, context) }
        api.get("hmon/views/aside") { request, context in try await aside(request, context) }
    }

    /// The user's readings kept aside as the same measurement as a counted one, stamped in `from..<to` (ms).
    private func aside(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.viewReader(context)
        let query = try RequestInput.query(request)
        let from = try RequestInput.integer(query, "from", in: 0...HMonViews.latestTime, default: 0)
        let to = try RequestInput.integer(query, "to", in: 0...HMonViews.latestTime, default: HMonViews.latestTime)
        return try Self.conditional(request, try await service.asideReadings(from: from, to: to))
    }

    /// The sync doctor of the user's own links (`hmon sources --json`): what came by each over `days`.
    /// The links are the account's, not its figures: a signed-in reader's only, as the links' own routes.
    private func sources(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.reader(context)
        let query = try RequestInput.query(request)
        let days = try RequestInput.int(query, "days", in: 1...Int(LinkHealth.daysKept), default: 7)
        return try Self.conditional(request, try await service.linkHealth(days: days, now: api.configuration.clock()))
    }

    private func devices(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.viewReader(context)
        return try await Self.kept(request, reader, in: api.viewAnswers) {
            HMonViews.DevicesView(try await reader.service.devicesOverview())
        }
    }

    private func weights(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.viewReader(context)
        let query = try RequestInput.query(request)
        let (days, calendar) = try Self.span(query, maxDays: Self.maxDays)
        return try await Self.kept(request, reader, in: api.viewAnswers) {
            HMonViews.WeightsView(try await reader.service.weightSeries(days: days, calendar: calendar))
        }
    }

    private func trend(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.viewReader(context)
        let query = try RequestInput.query(request)
        let days = try RequestInput.int(query, "days", in: 1...366, default: 30)
        let calendar = try Self.calendar(query)
        let now = try Self.now(query, api.configuration)
        let report = try await service.weightTrendReport(now: now, calendar: calendar)
        return try Self.conditional(request, HMonViews.TrendView(report, lastDays: days))
    }

    private func energy(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.viewReader(context)
        let query = try RequestInput.query(request)
        let (days, calendar) = try Self.span(query, maxDays: Self.maxEnergyDays)
        let summaries = try await service.energySummaries(for: days, now: try Self.now(query, api.configuration), calendar: calendar)
        return try Self.conditional(request, HMonViews.EnergyView(summaries))
    }

    private func dailyTotals(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.viewReader(context)
        let query = try RequestInput.query(request)
        let (days, calendar) = try Self.span(query, maxDays: Self.maxDays)
        return try await Self.kept(request, reader, in: api.viewAnswers) {
            HMonViews.DailyTotalsView(try await reader.service.dailyTotals(days: days, calendar: calendar))
        }
    }

    private func readings(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.viewReader(context)
        let query = try RequestInput.query(request)
        let from = try RequestInput.integer(query, "from", in: 0...HMonViews.latestTime, default: 0)
        let to = try RequestInput.integer(query, "to", in: 0...HMonViews.latestTime, default: HMonViews.latestTime)
        let order: HealthModel.SortOrder
        switch query["order"]?.lowercased() {
        case nil, "", "desc": order = .desc
        case "asc": order = .asc
        case let other?: throw APIError.validation("order", "must be asc or desc, got \"\(other.prefix(40))\"")
        }
        let limit = try RequestInput.int(query, "limit", in: 1...HMonViews.maxReadings, default: HMonViews.maxReadings)
        let field = query["field"].flatMap { $0.isEmpty ? nil : $0 }
        var body = try await service.foldReadings(ReadingsQuery(from: from, to: to, field: field, order: order, limit: limit),
                                                  into: ReadingsJSON()) { json, message in try json.append(message) }
        let (bytes, tag) = body.finished()
        return Self.respond(request, body: bytes, tag: tag)
    }

    /// `{"data":{"readings":[…]}}` written one reading at a time as the store reads them, the same bytes
    /// `encoded(HMonViews.ReadingsView(readings:))` gives: encoding 100,000 `Message`s at once built a tree
    /// of all of them (about 220 MB a request). The body is still held whole, about 200 bytes a reading,
    /// because its ETag is a hash of it and goes out before it.
    struct ReadingsJSON: Sendable {
        private var buffer = ByteBuffer(string: #"{"data":{"readings":["#)
        private var count = 0

        mutating func append(_ message: Message) throws {
            // A reading on its own encodes to the bytes it takes inside the array: no spaces, keys sorted.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if count > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeBytes(try encoder.encode(message))
            count += 1
        }

        /// The body and its ETag. Closed in place: a copy to close would write the whole body a second
        /// time (24.6 MB for 100,000 readings, `Benchmarks/push-memory.sh`).
        mutating func finished() -> (body: ByteBuffer, tag: String) {
            buffer.writeString("]}}")
            return (buffer, buffer.withUnsafeReadableBytes { ViewRoutes.etag(of: $0) })
        }
    }

    private func hrv(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.viewReader(context)
        let now = try Self.now(try RequestInput.query(request), api.configuration)
        return try Self.conditional(request, try await HMonViews.HRVView.read(from: service, now: now))
    }

    /// The nights of the `days` days ending on `through` with their measures, regularity, debt and consistency.
    private func sleep(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let through = try Self.day(query, "through")
        let days = try RequestInput.int(query, "days", in: 1...SleepReportAsk.maxDays, default: 30)
        // Without `need`, the person's own from their profile.
        let need = (query["need"] ?? "").isEmpty ? nil : try RequestInput.int(query, "need", in: 60...1_440, default: 480)
        let ask = SleepReportAsk(through: through, days: days, needMinutes: need.map(Double.init), calendar: try Self.calendar(query))
        return try await Self.kept(request, reader, in: api.viewAnswers) {
            try await reader.service.sleepReport(ask) as HMonViews.SleepView
        }
    }

    // MARK: Parameters

    /// `from` and `to` (days, both included) in the zone `tz` names (the server's own when absent).
    static func span(_ query: [String: String], maxDays: Int) throws -> (ClosedRange<Day>, Calendar) {
        let from = try day(query, "from")
        let to = try day(query, "to")
        guard from <= to else { throw APIError.validation("to", "must not be before from (\(from))") }
        guard from.days(to: to) < maxDays else {
            throw APIError.validation("to", "must be within \(maxDays) days of from: ask for a shorter span")
        }
        return (from...to, try calendar(query))
    }

    /// A required day parameter, as YYYY-MM-DD.
    static func day(_ query: [String: String], _ name: String) throws -> Day {
        guard let text = query[name], !text.isEmpty else { throw APIError.validation(name, "is required: a day as YYYY-MM-DD") }
        guard let day = Day(iso: text) else {
            throw APIError.validation(name, "must be a day as YYYY-MM-DD, got \"\(text.prefix(40))\"")
        }
        return day
    }

    /// The calendar of the zone `tz` names (the server's own when absent).
    static func calendar(_ query: [String: String]) throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        if let zone = query["tz"], !zone.isEmpty {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw APIError.validation("tz", "must be a time zone name such as Europe/Berlin, got \"\(zone.prefix(40))\"")
            }
            calendar.timeZone = timeZone
        } else {
            calendar.timeZone = .current
        }
        return calendar
    }

    /// `now` in milliseconds (the server's clock when absent): what "today so far" means for energy and trend.
    static func now(_ query: [String: String], _ configuration: ServerConfiguration) throws -> Date {
        Date(millisecondsSince1970: try RequestInput.integer(query, "now", in: 0...HMonViews.latestTime,
                                                             default: configuration.clock().millisecondsSince1970))
    }

    // MARK: Validators

    /// The view as `{"data": …}` with its ETag, or 304 when the client's copy is the same.
    static func conditional<View: Codable & Sendable>(_ request: Request, _ view: View) throws -> Response {
        respond(request, try encoded(view))
    }

    /// Like `conditional`, for a view that is a function of the store and the request alone (it never reads
    /// the server's clock): while the store is unchanged, the answer kept for this user and request is sent
    /// again (or 304) without computing the view.
    static func kept<View: Codable & Sendable>(_ request: Request, _ reader: (userID: String, service: LocalHealthService),
                                               in answers: ViewAnswers,
                                               _ view: @escaping @Sendable () async throws -> View) async throws -> Response {
        let key = reader.userID + " " + request.uri.path + "?" + (request.uri.query ?? "")
        guard let token = try await reader.service.changeToken() else { return try conditional(request, try await view()) }
        return respond(request, try await answers.answer(for: key, token: token) { try encoded(try await view()) })
    }

    /// The view's body, with sorted keys (the same view is the same bytes, whatever order its dictionaries
    /// were filled in), and its ETag.
    static func encoded<View: Codable & Sendable>(_ view: View) throws -> ViewAnswers.Answer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = try encoder.encode(SAMI.DataEnvelope(data: view))
        return ViewAnswers.Answer(body: body, tag: etag(of: body))
    }

    static func respond(_ request: Request, _ answer: ViewAnswers.Answer) -> Response {
        respond(request, body: ByteBuffer(bytes: answer.body), tag: answer.tag)
    }

    /// `body` is only made for a 200: a 304 sends none.
    static func respond(_ request: Request, body: @autoclosure () -> ByteBuffer, tag: String) -> Response {
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, no-cache"]
        if let asked = request.headers[.ifNoneMatch], asked.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == tag
        }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = JSONBody.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body()))
    }

    /// A strong validator from the body's bytes (FNV-1a, 64 bits: a change detector, not a secret).
    static func etag(of body: Data) -> String {
        body.withUnsafeBytes { etag(of: $0) }
    }

    static func etag(of body: UnsafeRawBufferPointer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"" + String(hash, radix: 16) + "-" + String(body.count, radix: 16) + "\""
    }
}
