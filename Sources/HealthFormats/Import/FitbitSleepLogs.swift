import Foundation
import HealthCore
import HealthModel

/// A Fitbit export's nights: `sleep-YYYY-MM-DD.json`, an array of sleep logs (`{logId, dateOfSleep, startTime,
/// endTime, type "stages"|"classic", levels: {summary, data: [{dateTime, level, seconds}], shortData}, …}`),
/// times local (`2026-03-13T22:47:30.000`). Each stretch of `levels.data` is a sample of its stage: `deep`,
/// `light` (hmon's core), `rem` and `wake` in a stages log; `asleep` (no stage), `restless` and `awake` in a
/// classic one. A log without stretches is its window asleep. The nights then follow hmon's sleep rule
/// (`SleepNightReadings`). `shortData` (wakes of a few minutes laid over the stretches) is left out: hmon's
/// night counts each minute once, in one stage, and the longer stretches already cover those minutes.
struct FitbitSleepLogs: JSONEventHandler {
    private(set) var nights = SleepNights()
    private let zone: TimeZone
    private var log: [String: JSONScalar] = [:]
    private var stretch: [String: JSONScalar] = [:]
    private var samples: [SleepSample] = []

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// `[i].levels.data[j]`
    private static func isStretch(_ path: JSONPath) -> Bool { path.matches([nil, "levels", "data", nil]) }

    mutating func open(_ container: JSONContainer, at path: JSONPath) throws {
        if path.depth == 0, container != .array { throw JSONProblem(path: path, message: "must be an array of sleep logs") }
        if path.depth == 1 {
            guard container == .object else { throw JSONProblem(path: path, message: "must be a sleep log (an object)") }
            log.removeAll(keepingCapacity: true)
            samples.removeAll(keepingCapacity: true)
        }
        if Self.isStretch(path) { stretch.removeAll(keepingCapacity: true) }
    }

    mutating func scalar(_ value: JSONScalar, at path: JSONPath) throws {
        if path.depth == 2, let key = path.lastKey { log[key] = value }
        if path.depth == 5, Self.isStretch(JSONPath(steps: Array(path.steps.dropLast()))), let key = path.lastKey { stretch[key] = value }
    }

    mutating func close(_ container: JSONContainer, at path: JSONPath) throws {
        if Self.isStretch(path) {
            func field(_ key: String) -> JSONPath { JSONPath(steps: path.steps + [.key(key)]) }
            let start = try time(stretch["dateTime"], at: field("dateTime"))
            guard let seconds = stretch["seconds"]?.number, seconds >= 0, seconds <= 86_400 else {
                throw JSONProblem(path: field("seconds"), message: "must be a number of seconds up to a day")
            }
            // A level hmon has no stage for is left out of the night, not fatal.
            guard let stage = stretch["level"]?.text.flatMap(Self.stage) else { return }
            samples.append(SleepSample(stage: stage, startMs: start, endMs: start + Int64(seconds * 1000), source: FitbitTakeout.source))
        } else if path.depth == 1 {
            if samples.isEmpty {
                func field(_ key: String) -> JSONPath { JSONPath(steps: path.steps + [.key(key)]) }
                let start = try time(log["startTime"], at: field("startTime")), end = try time(log["endTime"], at: field("endTime"))
                if end > start { samples = [SleepSample(stage: .unspecified, startMs: start, endMs: end, source: FitbitTakeout.source)] }
            }
            for sample in samples { nights.add(sample) }
        }
    }

    private func time(_ value: JSONScalar?, at path: JSONPath) throws -> Int64 {
        guard let text = value?.text else { throw JSONProblem(path: path, message: "is required, like \"2026-03-13T22:47:30.000\"") }
        guard let stamp = CSVDates.timestamp(date: text, time: nil, in: zone) else {
            throw JSONProblem(path: path, message: "\"\(text.prefix(30))\" is not a time like 2026-03-13T22:47:30.000")
        }
        return stamp
    }

    /// Fitbit's levels: a stages log's and a classic one's.
    static func stage(_ level: String) -> SleepStage? {
        switch level {
        case "deep": .deep
        case "light": .core
        case "rem": .rem
        case "wake", "awake", "restless": .awake
        case "asleep": .unspecified
        default: nil
        }
    }

    /// Reads every sleep file into one set of nights (two files can hold the same night: it counts once).
    static func nights(_ files: [DownloadFile], zone: TimeZone, download: String) throws -> SleepNights {
        var scanner = JSONEventScanner(handler: FitbitSleepLogs(zone: zone))
        for file in files {
            scanner = JSONEventScanner(handler: FitbitSleepLogs(zone: zone, carrying: scanner.handler.nights))
            do {
                try file.read { try scanner.feed($0) }
                try scanner.finish()
            } catch let problem as JSONProblem {
                throw ImportError(file: "\(download)/\(file.path)", problem: problem.description)
            }
        }
        return scanner.handler.nights
    }

    private init(zone: TimeZone, carrying nights: SleepNights) {
        self.zone = zone
        self.nights = nights
    }
}
