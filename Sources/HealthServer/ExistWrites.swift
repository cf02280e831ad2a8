import Foundation
import HealthCore
import HealthModel
import Hummingbird
import CheckedNumbers

/// Writing through Exist's API: acquire and release attributes, update (set) and increment (add to) a
/// day's value. Each object of a batch succeeds or fails on its own (its own transaction); the answer is
/// 200 when all succeeded, 202 when some failed, with `{"success":[…],"failed":[…]}`.
///
/// A written value becomes a reading of the owning service's device (`LocalStore.writeExistDay`), checked
/// by the same rules as every other reading, so the dashboard, `/v1.1/messages` and the insights see it.
struct ExistWrites: Sendable {
    let clients: any TokenStore
    let services: UserServices
    let configuration: ServerConfiguration
    var calendar: Calendar { Calendar.current }

    /// Exist's cap on the objects of one write.
    static let maxObjects = 35

    /// One failed object's reason, with Exist's `error_code`.
    struct Failure: Error {
        var code: String
        var message: String

        static func missing(_ field: String) -> Failure { Failure(code: "missing_field", message: "\(field) is required") }
        static func validation(_ message: String) -> Failure { Failure(code: "validation", message: message) }
    }

    /// Who writes: a signed-in user through an OAuth client whose token may write at least one group.
    private struct Writer {
        /// The store, acting for the signed-in user.
        var service: LocalHealthService
        var principal: Principal
        var clientID: String
        /// The client's name, as Exist's `service` shows it.
        var serviceName: String
    }

    private func writer(_ context: ServerContext) async throws -> Writer {
        let (principal, userID) = try ExistRoutes.caller(context)
        guard !principal.isPersonal, let clientID = principal.clientID,
              ExistScope.groups.contains(where: { principal.allows(group: $0, write: true) })
        else { throw APIError(.forbidden, code: 403, message: "This token may not write: sign in through an OAuth client with a *_write scope") }
        let serviceName: String
        if clientID == ClientRegistry.builtIn.id {
            serviceName = "hmon"
        } else {
            // The OAuth client's registration: the server's own business, not the user's, so from the store.
            serviceName = try await clients.client(id: clientID)?.name ?? clientID
        }
        return Writer(service: services.service(for: userID), principal: principal, clientID: clientID,
                      serviceName: serviceName)
    }

    /// The body's objects: a JSON array of at most 35 objects (400 otherwise).
    private func objects(_ request: Request) async throws -> [[String: ExistInput]] {
        let body = try await RequestInput.jsonBytes(request)
        if body.isEmpty { throw APIError.validation("body", "is empty: send a JSON array of objects") }
        let objects: [[String: ExistInput]]
        do {
            objects = try JSONDecoder().decode([[String: ExistInput]].self, from: body)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw APIError.validation("body", "is not valid JSON: \(context.underlyingErrorSummary ?? context.debugDescription)")
            }
            throw APIError.validation("body", "must be a JSON array of objects")
        }
        if objects.count > Self.maxObjects {
            throw APIError.validation("body", "holds \(objects.count) objects, more than \(Self.maxObjects): send them in batches")
        }
        return objects
    }

    /// Runs `each` on every object and answers with the successes (what `each` returned) and failures.
    private func batch(_ request: Request, _ each: ([String: ExistInput]) async throws -> [String: Any]) async throws -> Response {
        var success: [Any] = [], failed: [Any] = []
        for object in try await objects(request) {
            do {
                success.append(try await each(object))
            } catch let failure as Failure {
                var echoed = object.mapValues(\.json)
                echoed["error_code"] = failure.code
                echoed["error"] = failure.message
                failed.append(echoed)
            } catch let error as HealthError {
                // The whole request can be tried again: a 503, not a failed object.
                if case .storeBusy = error { throw error }
                if case .storeUnreachable = error { throw error }
                var echoed = object.mapValues(\.json)
                echoed["error_code"] = "validation"
                echoed["error"] = error.message
                failed.append(echoed)
            }
        }
        return ExistJSON.response(["success": success, "failed": failed] as [String: Any], status: failed.isEmpty ? .ok : .accepted)
    }

    /// The attribute an object names (by `name`, or by `template` where allowed), or a failure.
    private func attribute(_ object: [String: ExistInput], templateToo: Bool) throws -> InsightAttribute {
        for key in ["name", "template"] {
            if let value = object[key], value.text == nil { throw Failure.validation("\(key) must be text") }
        }
        let given = object["name"]?.text ?? (templateToo ? object["template"]?.text : nil)
        guard let given else { throw Failure.missing(templateToo && object["name"] == nil ? "template or name" : "name") }
        guard let attribute = InsightAttribute(existName: given) else {
            throw Failure(code: "not_found", message: "no attribute or template named \(given.prefix(40))")
        }
        return attribute
    }

    private func checkScope(_ attribute: InsightAttribute, _ writer: Writer) throws {
        guard writer.principal.allows(group: attribute.group, write: true) else {
            throw Failure(code: "unauthorised", message: "the token has no \(ExistScope.write(attribute.group)) scope")
        }
    }

    // MARK: Routes

    /// Each success is `{"name","active"}` as Exist's docs show it, or the whole attribute object with
    /// `success_objects=1`.
    func acquire(_ request: Request, _ context: ServerContext) async throws -> Response {
        try await acquire(request, context, creating: false)
    }

    /// `create` with a template hmon keeps makes the calling client its owner, as `acquire` does, and
    /// answers with the object sent (or the whole attribute). A custom attribute (label, group and
    /// value_type without a template) fails with `validation`: hmon keeps only what its readings measure.
    func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        try await acquire(request, context, creating: true)
    }

    private func acquire(_ request: Request, _ context: ServerContext, creating: Bool) async throws -> Response {
        let writer = try await writer(context)
        let query = try RequestInput.query(request)
        let wholeObjects = try RequestInput.flag(query, "success_objects", default: false)
        _ = try RequestInput.flag(query, "allow_user_defined", default: false)
        return try await batch(request) { object in
            if creating, object["template"] == nil, object["label"] != nil || object["value_type"] != nil {
                throw Failure.validation("hmon keeps only the attributes its readings measure: a custom attribute cannot be created "
                    + "(list the templates at /api/2/attributes/templates/)")
            }
            let attribute = try attribute(object, templateToo: true)
            try checkScope(attribute, writer)
            guard attribute.writeTarget != nil else { throw Failure.validation(attribute.whyNotWritable) }
            try await writer.service.acquireExist(attribute, clientID: writer.clientID, service: writer.serviceName,
                                                  now: configuration.clock())
            if wholeObjects {
                return ExistRoutes.attributeObject(attribute, owner: try await writer.service.existOwners()[attribute])
            }
            return creating ? object.mapValues(\.json).merging(["name": attribute.name]) { _, new in new }
                : ["name": attribute.name, "active": true]
        }
    }

    func release(_ request: Request, _ context: ServerContext) async throws -> Response {
        let writer = try await writer(context)
        return try await batch(request) { object in
            let attribute = try attribute(object, templateToo: false)
            try checkScope(attribute, writer)
            guard try await writer.service.releaseExist(attribute, clientID: writer.clientID) else {
                throw Failure(code: "unauthorised", message: "this client does not own \(attribute.name)")
            }
            return object.mapValues(\.json)
        }
    }

    /// `update` sets the service's value of the day (replacing it); `increment` adds to it and answers
    /// with `current`, the new total.
    func update(_ request: Request, _ context: ServerContext, increment: Bool) async throws -> Response {
        let writer = try await writer(context)
        let owners = try await writer.service.existOwners()
        let now = configuration.clock()
        let today = Day(now, in: calendar)
        return try await batch(request) { object in
            let attribute = try attribute(object, templateToo: false)
            try checkScope(attribute, writer)
            guard let owner = owners[attribute], owner.clientID == writer.clientID else {
                throw Failure(code: "unauthorised", message: "this client does not own \(attribute.name): acquire it first")
            }
            guard let target = attribute.writeTarget else { throw Failure.validation(attribute.whyNotWritable) }
            let day = try day(object, today: today, required: !increment)
            guard let input = object["value"] else { throw Failure.missing("value") }
            guard case .number(let value) = input else {
                throw Failure.validation(input == .null ? "value must not be null" : "value must be a number")
            }
            try attribute.checkExistValue(value)
            let start = day.start(in: calendar).millisecondsSince1970
            let stop = day.adding(days: 1).start(in: calendar).millisecondsSince1970
            // A day's value is one reading at local noon (now, for today's morning).
            let noon = start + (stop - start) / 2
            let total = try await writer.service.writeExistDay(deviceID: owner.deviceID, field: target.field,
                                                               day: (start, stop), ts: min(noon, now.millisecondsSince1970),
                                                               value: target.toReading(value), increment: increment, now: now)
            var answer = object.mapValues(\.json)
            if increment { answer["current"] = ExistRoutes.existNumber(attribute, total) }
            return answer
        }
    }

    private func day(_ object: [String: ExistInput], today: Day, required: Bool) throws -> Day {
        guard let input = object["date"] else {
            if required { throw Failure.missing("date") }
            return today
        }
        guard let text = input.text, let day = ExistDate.parse(text) else {
            throw Failure.validation("date must be a day YYYY-MM-DD from 1971 on")
        }
        if day > today { throw Failure.validation("date \(text) is in the future") }
        return day
    }
}

/// A JSON value of a write's object, kept as sent so failures can echo it.
enum ExistInput: Decodable, Equatable, Sendable {
    case null, bool(Bool), number(Double), text(String), other

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .text(s) }
        else { self = .other }
    }

    var text: String? { if case .text(let s) = self { s } else { nil } }

    var json: Any {
        switch self {
        case .null, .other: NSNull()
        case .bool(let b): b
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? Int64(rounding: n) as Any : n as Any
        case .text(let s): s
        }
    }
}
