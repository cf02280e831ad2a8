import Foundation
import HealthCore
import HealthModel
import Hummingbird
import CheckedNumbers

/// Exist's API v2 (`exist-api.md`) under `/api/2/`, over the same local store and the same insights as
/// `hmon insights`: a client written for Exist can read a user's attributes, averages, correlations and
/// insights, and write values after acquiring attributes (`ExistWrites`).
///
/// Days are the server's local days; values are in Exist's units (energy in kJ, body fat 0–1).
package struct ExistRoutes: Sendable {
    /// An OAuth client's registration, for the name Exist shows beside a written value.
    let store: any TokenStore
    let services: UserServices
    let configuration: ServerConfiguration
    let reports = ExistReportCache()
    var calendar: Calendar { Calendar.current }

    /// The most days `with-values` gives per attribute.
    static let maxDays = 31

    func add(to router: Router<ServerContext>) {
        let api = router.group("api/2")
        api.get("accounts/profile") { _, context in try await profile(context) }
        api.get("attributes") { request, context in try await attributes(request, context) }
        api.get("attributes/with-values") { request, context in try await withValues(request, context) }
        api.get("attributes/values") { request, context in try await values(request, context) }
        api.get("attributes/owned") { request, context in try await owned(request, context) }
        api.get("attributes/templates") { request, context in try await templates(request, context) }
        api.get("averages") { request, context in try await averages(request, context) }
        api.get("correlations") { request, context in try await correlations(request, context) }
        api.get("correlations/combo") { request, context in try await combo(request, context) }
        api.get("insights") { request, context in try await insights(request, context) }
        let writes = ExistWrites(clients: store, services: services, configuration: configuration)
        api.post("attributes/acquire") { request, context in try await writes.acquire(request, context) }
        api.post("attributes/create") { request, context in try await writes.create(request, context) }
        api.post("attributes/release") { request, context in try await writes.release(request, context) }
        api.post("attributes/update") { request, context in try await writes.update(request, context, increment: false) }
        api.post("attributes/increment") { request, context in try await writes.update(request, context, increment: true) }
    }

    // MARK: Who is asking

    /// The signed-in user behind a token; 401 without a valid one, 403 for a client's own token.
    /// The origin of the links a page writes (`LinkOrigin`).
    private func origin(_ request: Request, _ context: ServerContext) -> String {
        LinkOrigin.of(request, peer: context.peerAddress, configuration: configuration)
    }

    /// The store, acting for the token's user: every route reads and writes through it.
    private func service(_ userID: String) -> LocalHealthService { services.service(for: userID) }

    static func caller(_ context: ServerContext) throws -> (principal: Principal, userID: String) {
        guard let principal = context.principal else { throw APIError.unauthorized }
        guard let userID = principal.userID else { throw APIError.forbidden }
        return (principal, userID)
    }

    /// The attributes the token may read.
    private func readable(_ principal: Principal) -> [InsightAttribute] {
        InsightAttribute.allCases.filter { principal.allows(group: $0.group, write: false) }
    }

    /// 403 unless the token reads at least one group: a token for writing only reads nothing.
    private func readableOrForbidden(_ principal: Principal) throws -> [InsightAttribute] {
        let attributes = readable(principal)
        if attributes.isEmpty { throw APIError.forbidden }
        return attributes
    }

    private func today() -> Day { Day(configuration.clock(), in: calendar) }

    // MARK: Profile

    private func profile(_ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        // The profile is read like the attributes: a token that may only write reads nothing.
        _ = try readableOrForbidden(principal)
        let service = service(userID)
        let user: User
        do {
            user = try await service.currentUser()
        } catch HealthError.sessionExpired {
            throw APIError.unauthorized  // the token's user was deleted since the token was checked
        }
        let profile = try await service.profile()
        let names = user.fullName.split(separator: " ", maxSplits: 1).map(String.init)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = calendar.timeZone
        formatter.formatOptions = [.withInternetDateTime]
        let imperialWeight = profile.massUnit != .kg
        return ExistJSON.response([
            "username": user.name, "first_name": names.first ?? "", "last_name": names.count > 1 ? names[1] : "",
            "avatar": NSNull(), "timezone": calendar.timeZone.identifier, "local_time": formatter.string(from: configuration.clock()),
            "imperial_units": imperialWeight, "imperial_distance": false, "imperial_weight": imperialWeight,
            "imperial_energy": profile.energyUnit == .kcal, "imperial_liquid": false, "imperial_temperature": false,
            "trial": false, "delinquent": false,
        ] as [String: Any])
    }

    // MARK: Attributes

    /// The attributes matching the filters `groups`, `attributes`, `templates` and `manual`, among those
    /// the token may read.
    private func matching(_ query: [String: String], _ principal: Principal) throws -> [InsightAttribute] {
        var attributes = try readableOrForbidden(principal)
        func list(_ name: String) -> Set<String>? {
            guard let text = query[name], !text.isEmpty else { return nil }
            return Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        if let groups = list("groups") { attributes = attributes.filter { groups.contains($0.group) } }
        if let names = list("attributes") { attributes = attributes.filter { names.contains($0.name) } }
        if let templates = list("templates") { attributes = attributes.filter { $0.template.map(templates.contains) ?? false } }
        // hmon has no manual attributes: every one comes from readings.
        if try RequestInput.flag(query, "manual", default: false) { attributes = [] }
        return attributes
    }

    static func attributeObject(_ attribute: InsightAttribute, owner: ExistOwner?) -> [String: Any] {
        ExistObjects.attributeSummary(attribute).merging([
            "template": attribute.template ?? NSNull(),
            "manual": false, "active": true,
            "service": ["name": owner?.clientID ?? "hmon", "label": owner?.service ?? "hmon"],
        ] as [String: Any]) { _, new in new }
    }

    private func attributes(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let paging = try ExistPaging(query, defaultLimit: 100)
        let owners = try await service(userID).existOwners()
        var attributes = try matching(query, principal)
        // Exist's other filters: `owned` (this client's only) and `exclude_custom` (templated only) are
        // honoured; hmon's attributes are all active and of priority ≤ 10, so the two `include_` flags change nothing.
        if try RequestInput.flag(query, "owned", default: false) {
            attributes = attributes.filter { principal.clientID != nil && owners[$0]?.clientID == principal.clientID }
        }
        if try RequestInput.flag(query, "exclude_custom", default: false) { attributes = attributes.filter { $0.template != nil } }
        _ = try RequestInput.flag(query, "include_inactive", default: false)
        _ = try RequestInput.flag(query, "include_low_priority", default: false)
        let objects = attributes.map { Self.attributeObject($0, owner: owners[$0]) }
        return ExistJSON.response(try paging.envelope(objects, request: request, origin: origin(request, context)))
    }

    /// The templates hmon maps to its readings, as Exist lists its own (filter `groups`; hmon has no
    /// template of priority above 10, so `include_low_priority` changes nothing).
    private func templates(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try Self.caller(context)
        let query = try RequestInput.query(request)
        let paging = try ExistPaging(query, defaultLimit: 100)
        _ = try RequestInput.flag(query, "include_low_priority", default: false)
        let groups = query["groups"].flatMap { $0.isEmpty ? nil : Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        let templates = InsightAttribute.allCases.filter { a in a.template != nil && groups.map { $0.contains(a.group) } ?? true }
        return ExistJSON.response(try paging.envelope(templates.map(ExistObjects.attributeSummary), request: request,
                                                      origin: origin(request, context)))
    }

    private func owned(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let paging = try ExistPaging(try RequestInput.query(request), defaultLimit: 100)
        let owners = try await service(userID).existOwners()
        let mine = InsightAttribute.allCases.filter { a in principal.clientID != nil && owners[a]?.clientID == principal.clientID }
        return ExistJSON.response(try paging.envelope(mine.map { Self.attributeObject($0, owner: owners[$0]) }, request: request, origin: origin(request, context)))
    }

    /// The daily attributes over `days`, with the weight carry before them.
    private func daily(userID: String, days: ClosedRange<Day>) async throws -> DailyAttributes {
        let service = service(userID)
        let first = Day(ordinal: days.lowerBound.ordinal - WeightSeriesBuilder.carryDays)
        let totals = try await service.dailyTotals(days: first...days.upperBound, calendar: calendar)
        return DailyAttributes.build(totals: totals, nights: try await service.nightFigures(days: first...days.upperBound, calendar: calendar),
                                     days: first...days.upperBound, profile: try await service.profile(), calendar: calendar)
    }

    /// `{"date","value"}` with the value in Exist's units (whole for integer attributes), null for none.
    /// A day the attribute's owning client wrote (`written`, in the reading's units) has that value, as
    /// Exist's `update` promises; other days are computed from all the person's readings.
    package static func valueObject(_ attribute: InsightAttribute, _ daily: DailyAttributes, _ day: Day,
                                    written: [Day: Double] = [:]) -> [String: Any] {
        let value = written[day] ?? daily.value(attribute, on: day)
        return ["date": day.description, "value": value.map { existNumber(attribute, $0) } ?? NSNull()]
    }

    /// The values the attribute's owner wrote through `update`/`increment`, per day over `days`: the
    /// latest reading with the attribute's field on the owner's device each day (a write keeps one a day).
    private func writtenValues(_ attribute: InsightAttribute, owner: ExistOwner?, userID: String,
                               days: ClosedRange<Day>) async throws -> [Day: Double] {
        guard let owner, let field = attribute.writeTarget?.field else { return [:] }
        let start = days.lowerBound.start(in: calendar).millisecondsSince1970
        let end = days.upperBound.adding(days: 1).start(in: calendar).millisecondsSince1970 - 1
        var query = MessageQuery(sdid: owner.deviceID, startDate: start, endDate: end, order: .asc,
                                 count: StoreRules.maximumPageSize, fieldPresence: field)
        var written: [Day: Double] = [:]
        while true {
            let page = try await service(userID).messages(query)
            for message in page.messages {
                if let value = message.data[field]?.number { written[Day(Date(millisecondsSince1970: message.ts), in: calendar)] = value }
            }
            guard let next = page.next else { return written }
            query.offset = next
        }
    }

    package static func existNumber(_ attribute: InsightAttribute, _ value: Double) -> Any {
        let v = attribute.existShown(value)
        guard v.isFinite else { return NSNull() }
        return attribute.existValueType == 0 ? Int(rounding: v) as Any : v as Any
    }

    private func dateMax(_ query: [String: String]) throws -> Day {
        try ExistDate.query(query, "date_max") ?? today()
    }

    private func withValues(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let paging = try ExistPaging(query, defaultLimit: 100)
        let days = try RequestInput.int(query, "days", in: 1...Self.maxDays, default: 1)
        let last = try dateMax(query)
        let owners = try await service(userID).existOwners()
        let attributes = try matching(query, principal)
        let page = Array(attributes.dropFirst(paging.offset).prefix(paging.limit))
        let range = Day(ordinal: last.ordinal - (days - 1))...last
        let daily = try await daily(userID: userID, days: range)
        var objects: [Any] = []
        for attribute in page {
            let written = try await writtenValues(attribute, owner: owners[attribute], userID: userID, days: range)
            var object = Self.attributeObject(attribute, owner: owners[attribute])
            object["values"] = (0..<days).map { Self.valueObject(attribute, daily, Day(ordinal: last.ordinal - $0), written: written) }
            objects.append(object)
        }
        return ExistJSON.response(try paging.envelope(count: attributes.count, results: objects, request: request, origin: origin(request, context)))
    }

    /// One attribute's values, newest first, one per day from `date_max` back to the user's first reading.
    private func values(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let name = try RequestInput.text(query, "attribute")
        guard let attribute = InsightAttribute(existName: name) else {
            throw APIError(.notFound, code: 404, message: "No attribute named \(name.prefix(40)): list them at /api/2/attributes/")
        }
        guard principal.allows(group: attribute.group, write: false) else { throw APIError.forbidden }
        let paging = try ExistPaging(query, defaultLimit: 31)
        let last = try dateMax(query)
        let firstDay = try await service(userID).firstReadingTime().map { Day(Date(millisecondsSince1970: $0), in: calendar) }
        let count = firstDay.map { max(0, last.ordinal - $0.ordinal + 1) } ?? 0
        let newest = last.ordinal - paging.offset
        let oldest = max(newest - paging.limit + 1, last.ordinal - count + 1)
        var results: [Any] = []
        if newest >= oldest {
            let range = Day(ordinal: oldest)...Day(ordinal: newest)
            let daily = try await daily(userID: userID, days: range)
            let owner = try await service(userID).existOwners()[attribute]
            let written = try await writtenValues(attribute, owner: owner, userID: userID, days: range)
            results = (oldest...newest).reversed().map { Self.valueObject(attribute, daily, Day(ordinal: $0), written: written) }
        }
        return ExistJSON.response(try paging.envelope(count: count, results: results, request: request, origin: origin(request, context)))
    }

    // MARK: Derived data

    /// The insights as `hmon insights` computes them, for the token's user.
    private func report(userID: String) async throws -> InsightsReport {
        try await reports.report(service: service(userID), now: configuration.clock(), calendar: calendar)
    }

    private func dayFilter(_ query: [String: String], _ name: String) throws -> Day? {
        try ExistDate.query(query, name)
    }

    /// hmon keeps only the latest averages: `include_historical` changes nothing, and `date_min`/`date_max`
    /// keep them or not by their date.
    private func averages(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let paging = try ExistPaging(query, defaultLimit: 100)
        let allowed = Set(try matching(query.filter { $0.key != "templates" && $0.key != "manual" }, principal))
        let from = try dayFilter(query, "date_min"), to = try dayFilter(query, "date_max")
        _ = try RequestInput.flag(query, "include_historical", default: false)
        let report = try await report(userID: userID)
        let objects: [Any] = report.averages.filter { a in
            allowed.contains(a.attribute) && from.map { a.date >= $0 } ?? true && to.map { a.date <= $0 } ?? true
        }.map(ExistObjects.average)
        return ExistJSON.response(try paging.envelope(objects, request: request, origin: origin(request, context)))
    }

    /// The correlations whose two attributes the token may read.
    private func visibleCorrelations(_ principal: Principal, userID: String) async throws -> [AttributeCorrelation] {
        let readable = Set(try readableOrForbidden(principal))
        return try await report(userID: userID).correlations.filter { readable.contains($0.attribute) && readable.contains($0.attribute2) }
    }

    /// `strong=1`: |rho| ≥ 0.5 (Cohen's "strong"); `confident=1`: five stars, as Exist's docs say.
    private func correlations(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let paging = try ExistPaging(query, defaultLimit: 20)
        let strong = try RequestInput.flag(query, "strong", default: false)
        let confident = try RequestInput.flag(query, "confident", default: false)
        let name = query["attribute"].flatMap { $0.isEmpty ? nil : $0 }
        let objects: [Any] = try await visibleCorrelations(principal, userID: userID).filter { c in
            (!strong || abs(c.value) >= 0.5) && (!confident || c.stars == 5)
                && name.map { c.attribute.name == $0 || c.attribute2.name == $0 } ?? true
        }.map(ExistObjects.correlation)
        return ExistJSON.response(try paging.envelope(objects, request: request, origin: origin(request, context)))
    }

    /// One correlation of two attributes, in either order, or 404.
    private func combo(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let a = try RequestInput.text(query, "attribute"), b = try RequestInput.text(query, "attribute2")
        let found = try await visibleCorrelations(principal, userID: userID).first { c in
            (c.attribute.name == a && c.attribute2.name == b) || (c.attribute.name == b && c.attribute2.name == a)
        }
        guard let found else { throw APIError(.notFound, code: 404, message: "No correlation between these attributes") }
        return ExistJSON.response(ExistObjects.correlation(found))
    }

    private func insights(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (principal, userID) = try Self.caller(context)
        let query = try RequestInput.query(request)
        let paging = try ExistPaging(query, defaultLimit: 20)
        let readable = Set(try readableOrForbidden(principal))
        let from = try dayFilter(query, "date_min"), to = try dayFilter(query, "date_max")
        let priority = query["priority"].flatMap { $0.isEmpty ? nil : $0 }
        let wanted = try priority.map { _ in try RequestInput.int(query, "priority", in: 1...4, default: 1) }
        let now = configuration.clock()
        let objects: [Any] = try await report(userID: userID).findings.filter { f in
            readable.contains(f.attribute) && from.map { f.date >= $0 } ?? true && to.map { f.date <= $0 } ?? true
                && wanted.map { f.period.rawValue == $0 } ?? true
        }.map { ExistObjects.insight($0, now: now) }
        return ExistJSON.response(try paging.envelope(objects, request: request, origin: origin(request, context)))
    }
}

extension InsightAttribute {
    /// Exist's template of the attribute; nil for hmon's own (custom in Exist's terms).
    var template: String? {
        switch self {
        case .weighIns, .restingEnergy, .netEnergy, .stress: nil
        default: name
        }
    }
}
