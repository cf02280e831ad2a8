import Foundation
import HealthCore
import HealthModel

/// What openScale-sync's webhook posts (its `WebhookSync`): the open-source app that reads dozens of
/// Bluetooth scales sends each change of its own database, so hmon can mirror it.
/// - `insert` and `update`: one weigh-in, `{event, id, userId, username, date, weight, body_fat, water, muscle,
///   values: [{key, name, unit, value, isDerived}]}`, `date` as `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC;
/// - `delete`: `{event, userId, date}`, the weigh-in of that scale user at that instant;
/// - `clear`: `{event, userId}`, every weigh-in of that scale user;
/// - the bulk form `{event, measurements: […]}` of inserts or updates;
/// - `{event: "test"}` when the person presses Test in the app.
public enum OpenScaleEvent: Sendable, Equatable {
    case test
    /// The weigh-ins to keep, and the measurements of a bulk event refused as they were read, each by its place.
    case put([OpenScaleWeighIn], update: Bool, refused: [ArrivalRefusal] = [])
    case delete(scaleUser: Int, at: Int64)
    case clear(scaleUser: Int)

    public var name: String {
        switch self {
        case .test: "test"
        case .put(_, let update, _): update ? "update" : "insert"
        case .delete: "delete"
        case .clear: "clear"
        }
    }

    /// The openScale users the event is about, in the order it names them.
    public var scaleUsers: [Int] {
        switch self {
        case .test: []
        case .put(let weighIns, _, _): weighIns.map(\.scaleUser)
        case .delete(let user, _), .clear(let user): [user]
        }
    }

    public init(json body: Data) throws(OpenScaleEventError) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw OpenScaleEventError(problem: "body must be a JSON object, as openScale-sync sends: {\"event\": \"insert\", \"userId\": 1, \"date\": …, \"weight\": 72.4, …}")
        }
        guard let event = object["event"] as? String else { throw OpenScaleEventError(problem: "no \"event\": expected insert, update, delete, clear or test") }
        switch event {
        case "test":
            self = .test
        case "insert", "update":
            guard let bulk = object["measurements"] else {
                self = .put([try OpenScaleWeighIn(record: object)], update: event == "update")
                return
            }
            guard let records = bulk as? [Any] else {
                throw OpenScaleEventError(problem: "measurements must be an array of weigh-ins, as openScale-sync's bulk event sends")
            }
            // A bulk event is judged measurement by measurement: one bad one costs only itself.
            var weighIns: [OpenScaleWeighIn] = []
            var refused: [ArrivalRefusal] = []
            for (index, record) in records.enumerated() {
                do {
                    weighIns.append(try OpenScaleWeighIn(record: record, place: "measurements[\(index)]"))
                } catch {
                    refused.append(ArrivalRefusal(record: "measurements[\(index)]", why: error.problem))
                }
            }
            self = .put(weighIns, update: event == "update", refused: refused)
        case "delete":
            guard let user = Self.integer(object["userId"]) else { throw OpenScaleEventError(problem: "delete without a userId") }
            guard let text = object["date"] as? String, let time = ReadingTime.milliseconds(iso: text) else {
                throw OpenScaleEventError(problem: "delete without a date like 2026-11-20T06:30:00.000Z")
            }
            self = .delete(scaleUser: user, at: time)
        case "clear":
            guard let user = Self.integer(object["userId"]) else { throw OpenScaleEventError(problem: "clear without a userId") }
            self = .clear(scaleUser: user)
        default:
            throw OpenScaleEventError(problem: "event \"\(event)\" is none of insert, update, delete, clear and test")
        }
    }

    static func integer(_ value: Any?) -> Int? {
        (value as? NSNumber).flatMap { Double(exactly: $0.doubleValue).flatMap { Int(exactly: $0) } }
    }
}

/// One weigh-in as openScale sends it. openScale writes 0 for what the scale did not measure.
public struct OpenScaleWeighIn: Sendable, Equatable {
    public var scaleUser: Int
    /// openScale's name of that user, as openScale-sync sends it (`username`); nil from older versions.
    public var username: String?
    public var timestamp: Int64
    public var kilograms: Double
    public var bodyFatPercent: Double?
    public var waterPercent: Double?
    public var musclePercent: Double?

    /// The measurement as it is named in the answer: `measurements[2]` in a bulk event, the event itself else.
    public var place = "the weigh-in"

    init(record: Any, place: String? = nil) throws(OpenScaleEventError) {
        guard let record = record as? [String: Any] else { throw OpenScaleEventError(problem: "a measurement that is not an object") }
        guard let user = OpenScaleEvent.integer(record["userId"]) else {
            throw OpenScaleEventError(problem: "userId must be a whole number (openScale's user), as openScale-sync sends it")
        }
        guard let text = record["date"] as? String, let time = ReadingTime.milliseconds(iso: text) else {
            throw OpenScaleEventError(problem: "date must be a real date and time like 2026-11-20T06:30:00.000Z")
        }
        guard let weight = (record["weight"] as? NSNumber)?.doubleValue, weight.isFinite else {
            throw OpenScaleEventError(problem: "weight must be a number of kilograms")
        }
        if let place { self.place = place }
        func measured(_ key: String) -> Double? { (record[key] as? NSNumber)?.doubleValue.nonZero }
        // Muscle is kept as a mass, the weight times this share: a share past 100 % is no measurement, and a
        // product of two huge numbers would not be a number at all.
        if let muscle = measured("muscle"), !(0...100).contains(muscle) {
            throw OpenScaleEventError(problem: "muscle must be a percentage of the weight, 0–100")
        }
        scaleUser = user
        username = (record["username"] as? String).map { TextRules.replacingUnsafe(in: String($0.prefix(40))).text }
        timestamp = time
        kilograms = weight
        bodyFatPercent = measured("body_fat")
        waterPercent = measured("water")
        musclePercent = measured("muscle")
    }

    /// Where it came from, in people's words: openScale and the scale user it was weighed as ("openScale · anna").
    public var origin: String { ReadingOrigin.text(["openScale", username]) }

    /// The reading's fields, named by the kinds table: muscle in kg of the weight, as the CSV import keeps it.
    public var data: [String: FieldValue] {
        var data: [String: FieldValue] = [ReadingKind.weight.field: .number(kilograms)]
        if let bodyFatPercent { data[ReadingKind.bodyFat.field] = .number(bodyFatPercent) }
        if let waterPercent { data[ReadingKind.bodyWaterPercentage.field] = .number(waterPercent) }
        if let musclePercent { data[ReadingKind.muscleMass.field] = .number(kilograms * musclePercent / 100) }
        return data
    }
}

/// A body that is not an openScale event; nothing of it is kept.
public struct OpenScaleEventError: Error, Sendable, Equatable {
    public var problem: String
}

private extension Double {
    var nonZero: Double? { self == 0 ? nil : self }
}
