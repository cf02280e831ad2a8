import CheckedNumbers
import Foundation
import HealthCore
import HealthModel

/// Reads a Health Auto Export JSON payload (`{"data": {"metrics": [{"name", "units", "data": [{"qty",
/// "date", "source"}]}], "workouts": […]}}`) in two passes over its bytes, keeping nothing but the
/// current data point, so a year of minute data is read in bounded memory.
///
/// Pass one (`HealthAutoExportHeads`) learns each metric's name and units: JSON does not order an object's
/// keys, and a metric's `data` may come before its `name`. Pass two reads every data point of a kept
/// metric and hands it on as the reading `hmon import` makes of the same Apple Health sample: the same
/// kind, source, start time and value, so the same reading id.
///
/// What is refused, per point, with a reason (reported, not fatal): a value outside the kind's range, a
/// unit hmon does not know, and a point the app aggregated — one with `Avg`/`Min`/`Max` instead of `qty`,
/// or without a single `source` (the app writes the sources of a merged interval joined by `|`). An
/// aggregate is no Apple Health sample: stored as a reading it would stand beside the samples that the
/// same period's export brings with `hmon import` (other times, other ids) and count twice in the day's
/// totals. What is malformed (not JSON, a field of the wrong type, a date not `yyyy-MM-dd HH:mm:ss Z`) is a
/// `JSONProblem` naming its place, and the whole payload is refused.
struct HealthAutoExportReader: JSONEventHandler {
    /// A metric's name and units, by its index in `data.metrics`.
    var heads: [Int: (name: String?, units: String?)]
    var emit: (ImportedReading) throws -> Void
    var tally = ImportTally()
    /// `sleep_analysis`' points, made into nights once the whole payload is read (`SleepNightReadings`).
    private(set) var sleep = SleepNights()
    private(set) var sawData = false
    private var point: [String: JSONScalar] = [:]

    init(heads: [Int: (name: String?, units: String?)], emit: @escaping (ImportedReading) throws -> Void) {
        self.heads = heads
        self.emit = emit
    }

    mutating func open(_ container: JSONContainer, at path: JSONPath) throws {
        try HealthAutoExportShape.check(container, at: path)
        if path.matches(["data"]) { sawData = true }
        if HealthAutoExportShape.isPoint(path) { point.removeAll(keepingCapacity: true) }
    }

    mutating func close(_ container: JSONContainer, at path: JSONPath) throws {
        guard HealthAutoExportShape.isPoint(path), let metric = path.index(at: 2), let index = path.index(at: 4) else { return }
        try takePoint(metric: metric, index: index, path: path)
    }

    mutating func scalar(_ value: JSONScalar, at path: JSONPath) throws {
        try HealthAutoExportShape.check(value, at: path)
        // A point's own fields; anything nested deeper in a point (no kept metric has any) is passed over.
        if path.depth == 6, HealthAutoExportShape.isPoint(JSONPath(steps: Array(path.steps.dropLast()))), let key = path.lastKey {
            point[key] = value
        }
    }

    private mutating func takePoint(metric: Int, index: Int, path: JSONPath) throws {
        let head = heads[metric]
        guard let name = head?.name else {
            throw JSONProblem(path: Self.path(path, metric: metric, "name"), message: "is required: the metric's name")
        }
        guard let kind = HealthAutoExportMetrics.kept[name] else {
            tally.skippedKinds[name, default: 0] += 1
            return
        }
        func field(_ key: String) -> JSONPath { JSONPath(steps: path.steps + [.key(key)]) }
        func refuse(_ reason: String) { tally.skip(kind, "\(name): \(reason)") }
        if kind == .sleep {
            if let refusal = try sleepPoint(units: head?.units ?? "", at: path) { refuse(refusal) }
            return
        }

        guard case .string(let dateText)? = point["date"] else {
            throw JSONProblem(path: field("date"), message: point["date"] == nil ? "is required" : "must be a string")
        }
        let timestamp = Array(dateText.utf8).withUnsafeBufferPointer(ByteParsing.appleDate)
        guard let timestamp else {
            throw JSONProblem(path: field("date"), message: "\"\(dateText.prefix(40))\" is not yyyy-MM-dd HH:mm:ss Z")
        }
        let sourceName = kind.sources[.healthAutoExport]
        let valueKey = sourceName?.valueKey ?? "qty"
        guard let qtyValue = point[valueKey] else {
            if point["Avg"] != nil || point["Min"] != nil || point["Max"] != nil {
                refuse("aggregated by the app (Avg/Min/Max over an interval), not a sample")
                return
            }
            throw JSONProblem(path: field(valueKey), message: "is required: the value, a number")
        }
        guard case .number(let qtyText) = qtyValue, let qty = Double(qtyText) else {
            throw JSONProblem(path: field(valueKey), message: "must be a number")
        }
        var source: String?
        if case .string(let text)? = point["source"] {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            source = trimmed.isEmpty ? nil : trimmed
        }
        guard let source, !source.contains("|") else {
            refuse(source == nil ? "aggregated by the app (no source: a value over an interval), not a sample"
                                 : "aggregated by the app (several sources joined by |), not a sample")
            return
        }
        let units = head?.units ?? ""
        guard let value = HealthAutoExportMetrics.converted(qty, for: kind, units: units) else {
            refuse("in unknown unit \"\(units.prefix(20))\"")
            return
        }
        guard kind.saneRange.contains(value) else {
            refuse(UnitConversion.outOfRangeReason(kind))
            return
        }
        // The point's other figures (a blood pressure's diastolic), in the same unit, kept in the same reading.
        var extras: [String: Double] = [:]
        for (key, extraField) in (sourceName?.alongside ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let raw = point[key] else { continue }
            guard case .number(let text) = raw, let figure = Double(text), let companion = ReadingKind(field: extraField) else {
                throw JSONProblem(path: field(key), message: "must be a number")
            }
            guard companion.saneRange.contains(figure) else {
                refuse(UnitConversion.outOfRangeReason(companion))
                return
            }
            extras[extraField] = figure
        }
        tally.kept[kind, default: 0] += 1
        try emit(ImportedReading(kind: kind, source: source, timestamp: timestamp, value: value, extras: extras))
    }

    /// A point of `sleep_analysis`, in either of the app's two shapes (its JSON format's documentation and
    /// the payloads it sends): a sample it did not aggregate, `{"startDate", "endDate", "value": "Core",
    /// "qty", "source"}`, kept as a sample; or a night it summed, `{"date", "sleepStart", "sleepEnd",
    /// "inBedStart", "inBedEnd", "totalSleep", "asleep", "core", "deep", "rem", "awake", "inBed", "source"}`
    /// in `units` (hours), kept as a summary (`SleepNights` says how overlapping ones count). In the summed
    /// shape `asleep` is sleep without a stage beside `totalSleep`, or, from versions without stages, the
    /// whole time asleep.
    /// Returns why the point is refused, nil when it is kept.
    private mutating func sleepPoint(units: String, at path: JSONPath) throws -> String? {
        func field(_ key: String) -> JSONPath { JSONPath(steps: path.steps + [.key(key)]) }
        func date(_ key: String) throws -> Int64? {
            guard let value = point[key], value != .null else { return nil }
            guard case .string(let text) = value, let time = Array(text.utf8).withUnsafeBufferPointer(ByteParsing.appleDate) else {
                throw JSONProblem(path: field(key), message: "must be a date like 2026-11-20 07:10:00 +0100")
            }
            return time
        }
        var source = "Health"
        if case .string(let text)? = point["source"] {
            let first = text.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !first.isEmpty { source = first }
        }
        if case .string(let value)? = point["value"], let start = try date("startDate"), let end = try date("endDate") {
            guard let stage = SleepStage(healthAutoExportValue: value) else {
                return "a sleep sample with unknown value \"\(value.prefix(40))\""
            }
            sleep.add(SleepSample(stage: stage, startMs: start, endMs: end, source: source))
            return nil
        }
        guard let factor = ReadingKind.sleep.sources[.healthAutoExport]?.units[units] else {
            return "in unknown unit \"\(units.prefix(20))\""
        }
        func minutes(_ key: String) throws -> Double? {
            guard let value = point[key], value != .null else { return nil }
            guard case .number(let text) = value, let number = Double(text) else {
                throw JSONProblem(path: field(key), message: "must be a number")
            }
            return number * factor
        }
        var figures: [ReadingKind: Double] = [:]
        let unstaged = try minutes("asleep")
        let staged = [(ReadingKind.coreSleep, "core"), (.deepSleep, "deep"), (.remSleep, "rem"), (.sleepAwake, "awake"), (.timeInBed, "inBed")]
        for (kind, key) in staged {
            if let value = try minutes(key), value > 0 { figures[kind] = value }
        }
        let stages = [ReadingKind.coreSleep, .deepSleep, .remSleep].compactMap { figures[$0] }
        if let total = try minutes("totalSleep") {
            figures[.sleep] = total
        } else if unstaged != nil || !stages.isEmpty {
            figures[.sleep] = (unstaged ?? 0) + stages.reduce(0, +)
        }
        let starts = try [date("sleepStart"), date("inBedStart")].compactMap { $0 }
        let ends = try [date("sleepEnd"), date("inBedEnd"), date("date")].compactMap { $0 }
        guard let end = ends.max() else {
            throw JSONProblem(path: field("sleepEnd"), message: "is required: when the night ended (or its date)")
        }
        let longest = figures.values.max() ?? 0
        // Judged before it becomes milliseconds: 1e300 minutes fits no integer.
        guard figures.values.allSatisfy({ (0...1440).contains($0) }) else {
            throw JSONProblem(path: field("totalSleep"), message: "and the stages must each be minutes of one night, 0–1440")
        }
        let start = starts.min() ?? end - Int64(rounding: longest * 60_000)
        sleep.add(SleepSummary(startMs: start, endMs: end, source: source, minutes: figures))
        return nil
    }

    private static func path(_ point: JSONPath, metric: Int, _ key: String) -> JSONPath {
        JSONPath(steps: [.key("data"), .key("metrics"), .index(metric), .key(key)])
    }

    /// At the end: the payload must have had its `data` object.
    func finish() throws {
        guard sawData else {
            throw JSONProblem(path: JSONPath(), message: "has no \"data\" object: is it Health Auto Export's JSON?")
        }
    }
}

/// Pass one: each metric's name and units, checked for their types.
struct HealthAutoExportHeads: JSONEventHandler {
    private(set) var heads: [Int: (name: String?, units: String?)] = [:]
    /// Metrics in a payload; far more than the app has (about 150).
    static let maxMetrics = 10_000

    mutating func open(_ container: JSONContainer, at path: JSONPath) throws {
        try HealthAutoExportShape.check(container, at: path)
        if path.matches(["data", "metrics", nil]), let index = path.index(at: 2) {
            guard index < Self.maxMetrics else {
                throw JSONProblem(path: path, message: "is one metric more than \(Self.maxMetrics): send fewer at once")
            }
            heads[index] = (nil, nil)
        }
    }

    mutating func close(_ container: JSONContainer, at path: JSONPath) throws {}

    mutating func scalar(_ value: JSONScalar, at path: JSONPath) throws {
        try HealthAutoExportShape.check(value, at: path)
        guard path.depth == 4, path.matches(["data", "metrics", nil, path.lastKey]), let index = path.index(at: 2) else { return }
        switch (path.lastKey, value) {
        case ("name", .string(let name)): heads[index]?.name = name
        case ("units", .string(let units)): heads[index]?.units = units
        default: break
        }
    }
}

/// The payload's shape: what must be an object, an array or a string where it is.
enum HealthAutoExportShape {
    /// `data.metrics[i].data[j]`.
    static func isPoint(_ path: JSONPath) -> Bool { path.matches(["data", "metrics", nil, "data", nil]) }

    static func check(_ container: JSONContainer, at path: JSONPath) throws {
        let isObject = container == .object
        func problem(_ expected: String) -> JSONProblem {
            .init(path: path, message: "must be \(expected)")
        }
        if path.depth == 0, !isObject { throw problem("a JSON object: {\"data\": {\"metrics\": […]}}") }
        if path.matches(["data"]), !isObject { throw problem("an object with \"metrics\"") }
        if path.matches(["data", "metrics"]), isObject { throw problem("an array of metrics") }
        if path.matches(["data", "metrics", nil]), !isObject { throw problem("an object with name, units and data") }
        if path.matches(["data", "metrics", nil, "data"]), isObject { throw problem("an array of data points") }
        if isPoint(path), !isObject { throw problem("an object such as {\"qty\": 72.4, \"date\": \"2026-11-20 07:10:00 +0100\"}") }
    }

    static func check(_ value: JSONScalar, at path: JSONPath) throws {
        func problem(_ expected: String) -> JSONProblem {
            .init(path: path, message: "must be \(expected)")
        }
        if path.depth == 0 { throw problem("a JSON object: {\"data\": {\"metrics\": […]}}") }
        if path.matches(["data"]) { throw problem("an object with \"metrics\"") }
        if path.matches(["data", "metrics"]), value != .null { throw problem("an array of metrics") }
        if path.matches(["data", "metrics", nil]) { throw problem("an object with name, units and data") }
        if path.matches(["data", "metrics", nil, "data"]), value != .null { throw problem("an array of data points") }
        if isPoint(path) { throw problem("an object such as {\"qty\": 72.4, \"date\": \"2026-11-20 07:10:00 +0100\"}") }
        if path.matches(["data", "metrics", nil, "name"]) || path.matches(["data", "metrics", nil, "units"]) {
            guard case .string = value else { throw problem("a string") }
        }
    }
}
