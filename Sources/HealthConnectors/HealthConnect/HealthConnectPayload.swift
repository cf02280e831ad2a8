import Foundation
import CheckedNumbers
import HealthCore
import HealthModel

/// A Health Connect payload as hmon keeps it: the readings, and what was refused or skipped and why.
///
/// Both apps post one JSON object of arrays named by Health Connect's record types (`weight`, `steps`,
/// `heart_rate_variability`…); the kinds table names the arrays hmon keeps and the value field of each
/// (`ReadingKind.sources[.healthConnect]`), so this reader holds no list of its own. The rules that are
/// Health Connect's and not a kind's:
/// - **Day totals win.** `daily_totals` (Life Dashboard Companion's, from Health Connect's aggregate, which
///   removes the double count of a phone and a watch recording the same walk) become one reading per day and
///   kind, and the raw records and buckets of a summed kind on a day with a total are not kept: summing
///   them would count the phone's and the watch's copies both. A day's total less its active energy is its
///   resting energy. Days without a total (older ones, HC Webhook's payloads) keep their records.
/// - **A basal metabolic rate** is a rate, kcal a day: kept as that day's resting energy, one reading a day,
///   the last one sent winning.
/// - **Buckets** (`bucket_start`, `sample_count`, `total` or `avg`) of a sum are each kept as a reading named
///   by its window and content: a window re-sent whole is the same reading, and a late part of a window sent
///   again "with only the late samples" is another, so the day's sum adds the parts as the app's docs ask.
///   A bucketed HRV mean is one reading per window keeping its `sample_count`; a late part is merged into it
///   weighted by count (`HealthConnectArrival`).
/// - **Days** are the phone's dates, read in `calendar` (the server's zone).
public struct HealthConnectPayload: Sendable {
    public var app: HealthConnectApp
    public var readings: [HealthConnectReading]
    /// Records refused, counted by why ("weight: weight 700 is outside 1–650").
    public var refused: [String: Int]
    /// The same refusals one by one, each named by its array, place and id (`weight[2] (uuid bad-1)`).
    public var refusals: [ArrivalRefusal]
    /// Arrays hmon does not keep, by name.
    public var skipped: [String: SkippedRecords]
    /// Raw records and buckets of a day whose `daily_totals` figure was kept instead, by array.
    public var coveredByDailyTotals: [String: Int]
    /// When the app made the payload (its `timestamp`, ms), when it says so readably.
    public var sentAt: Int64?

    /// The kinds `daily_totals` can hold a day's total of (its `steps` and `active_calories`), by the table.
    static let dayTotalKinds: Set<ReadingKind> = Set(["steps", "active_calories"].compactMap { ReadingKind.named($0, by: .healthConnect) })

    /// Keys of the payload that are not arrays of records.
    private static let envelope: Set<String> = ["timestamp", "app_version", "source", "test", "device", "daily_totals",
                                                "_diagnostics", "_resolutions", "backfill", "window_start", "window_end"]
    /// Arrays not kept, with the reason when it is more than "not kept".
    private static let reasons: [String: String] = [
        "total_calories": "not kept as records: a day's total_calories less its active energy, from daily_totals, is kept as its resting energy",
    ]

    public init(json body: Data, calendar: Calendar) throws(HealthConnectPayloadError) {
        guard !body.isEmpty else { throw HealthConnectPayloadError(problem: "body is empty: send the app's JSON") }
        // The arrays of records are left in the body and read a record at a time below (`JSONSlices`); the
        // rest (the envelope, sleep, daily totals: a few entries) is parsed whole.
        let slices = JSONSlices(bytes: body)
        var object: [String: Any] = [:]
        do {
            for member in try slices.topLevelMembers() {
                if slices.isArray(member.value) && !Self.envelope.contains(member.name) && member.name != "sleep" && member.name != "screen_time" {
                    object[member.name] = RecordsAt(range: member.value)
                } else {
                    object[member.name] = try slices.parse(member.value)
                }
            }
        } catch {
            throw Self.notAnObject
        }
        app = try Self.app(of: object)
        sentAt = (object["timestamp"] as? String).flatMap(ReadingTime.milliseconds(iso:))
        readings = []
        refused = [:]
        refusals = []
        skipped = [:]
        coveredByDailyTotals = [:]
        if object["source"] as? String == "screen_time" {
            // The companion posts its screen time to the same webhooks: answered, not kept.
            skipped["screen_time"] = SkippedRecords(records: (object["screen_time"] as? [Any])?.count ?? 0, why: "not health data")
            return
        }
        // A record sent twice in one payload is one reading (the last one sent), in the place of the first:
        // its place in `readings` by key, not a second dictionary of the readings themselves.
        var places: [String: Int] = [:]
        var kept: [HealthConnectReading] = []
        func keep(_ reading: HealthConnectReading) {
            if let place = places[reading.key] {
                kept[place] = reading
            } else {
                places[reading.key] = kept.count
                kept.append(reading)
            }
        }
        let covered = try dailyTotals(object["daily_totals"], calendar: calendar, keep: keep)
        if let sessions = object["sleep"] {
            guard let sessions = sessions as? [Any] else { throw HealthConnectPayloadError(problem: "sleep must be an array of sessions") }
            for night in sleepNights(sessions, calendar: calendar) { keep(night) }
        }
        for name in object.keys.sorted() where !Self.envelope.contains(name) && name != "sleep" {
            guard let records = object[name] as? RecordsAt else {
                if ReadingKind.named(name, by: .healthConnect) != nil {
                    throw HealthConnectPayloadError(problem: "\(name) must be an array of records")
                }
                continue
            }
            var elements = slices.elements(records.range)
            guard let kind = ReadingKind.named(name, by: .healthConnect) else {
                var count = 0
                while try Self.next(&elements) != nil { count += 1 }
                if count > 0 { skipped[name] = SkippedRecords(records: count, why: Self.reasons[name] ?? "not kept") }
                continue
            }
            while let element = try Self.next(&elements) {
                let (index, record) = element
                let label = Self.label(record, array: name, index: index)
                do {
                    var reading = try Self.reading(record, array: name, kind: kind, calendar: calendar)
                    reading.record = label
                    let day = Day(Date(millisecondsSince1970: reading.timestamp), in: calendar)
                    if covered.contains(DayOfKind(kind: kind, day: day)) {
                        coveredByDailyTotals[name, default: 0] += 1
                    } else {
                        if Self.dayTotalKinds.contains(kind) { reading.countsToward = day }
                        keep(reading)
                    }
                } catch {
                    refuse(label, array: name, why: error.reason)
                }
            }
        }
        readings = kept
    }

    /// An array of records still in the body, read when its turn comes.
    private struct RecordsAt {
        var range: Range<Int>
    }

    private static let notAnObject = HealthConnectPayloadError(
        problem: "body must be a JSON object of Health Connect records, {\"timestamp\": …, \"weight\": [{\"kilograms\": 75.5, \"time\": …}], …}")

    /// The next record of an array; a body that is not JSON there is refused whole, as a body that is none.
    private static func next(_ elements: inout JSONSlices.Elements) throws(HealthConnectPayloadError) -> (place: Int, value: Any)? {
        do {
            return try elements.next()
        } catch {
            throw notAnObject
        }
    }

    /// Counts a refusal by why and lists it by its record.
    mutating func refuse(_ record: String, array: String, why: String) {
        refused["\(array): \(why)", default: 0] += 1
        refusals.append(ArrivalRefusal(record: record, why: why))
    }

    /// A record as the payload names it: `weight[2]`, with its `uuid` when it has one (made safe to print:
    /// it comes from outside).
    static func label(_ record: Any, array: String, index: Int) -> String {
        guard let uuid = (record as? [String: Any])?["uuid"] as? String, !uuid.isEmpty else { return "\(array)[\(index)]" }
        return "\(array)[\(index)] (uuid \(TextRules.replacingUnsafe(in: String(uuid.prefix(64))).text))"
    }

    private struct DayOfKind: Hashable {
        var kind: ReadingKind
        var day: Day
    }

    private static func app(of object: [String: Any]) throws(HealthConnectPayloadError) -> HealthConnectApp {
        if let source = object["source"] {
            guard let name = source as? String, ["health_connect", "healthkit_ios", "screen_time"].contains(name) else {
                throw HealthConnectPayloadError(problem: "source \(source) is not a payload of a Health Connect app: "
                                                + "Life Dashboard Companion sends \"health_connect\"")
            }
            return .lifeDashboardCompanion
        }
        if object["daily_totals"] != nil || object["_diagnostics"] != nil || object["_resolutions"] != nil { return .lifeDashboardCompanion }
        guard object["timestamp"] != nil || object.keys.contains(where: { ReadingKind.named($0, by: .healthConnect) != nil }) else {
            throw HealthConnectPayloadError(problem: "body is not a Health Connect payload: expected {\"timestamp\": …, "
                                            + "\"app_version\": …, \"weight\": […], \"steps\": […], …}")
        }
        return .hcWebhook
    }

    /// Keeps a reading per day and summed kind of `daily_totals`; returns the days and kinds it covers.
    private mutating func dailyTotals(_ value: Any?, calendar: Calendar,
                                      keep: (HealthConnectReading) -> Void) throws(HealthConnectPayloadError) -> Set<DayOfKind> {
        guard let value else { return [] }
        guard let totals = value as? [Any] else { throw HealthConnectPayloadError(problem: "daily_totals must be an array") }
        var covered: Set<DayOfKind> = []
        for (index, entry) in totals.enumerated() {
            let label = "daily_totals[\(index)]"
            guard let entry = entry as? [String: Any], let text = entry["date"] as? String, let day = Day(iso: text) else {
                refuse(label, array: "daily_totals", why: "an entry without a date as YYYY-MM-DD")
                continue
            }
            // Stamped at the start of the span it totals, as HC Webhook stamps its own: never in the future.
            let start = day.start(in: calendar).millisecondsSince1970
            func figure(_ kind: ReadingKind, _ value: Double) {
                do {
                    let accepted = try ReadingRules.accepted(value, for: kind.fieldSpec)
                    var reading = HealthConnectReading(kind: kind, key: "day:\(kind.name):\(day)", timestamp: start, value: accepted, totalOf: day)
                    reading.record = "\(label) (\(day))"
                    keep(reading)
                    covered.insert(DayOfKind(kind: kind, day: day))
                } catch {
                    refuse("\(label) (\(day))", array: "daily_totals", why: error.reason)
                }
            }
            for (name, raw) in entry.sorted(by: { $0.key < $1.key }) where name != "date" {
                guard let kind = ReadingKind.named(name, by: .healthConnect), kind.day == .sum, let number = Self.number(raw) else {
                    if name != "total_calories" { skipped["daily_totals.\(name)", default: SkippedRecords(records: 0, why: "not kept")].records += 1 }
                    continue
                }
                figure(kind, number)
            }
            if let total = Self.number(entry["total_calories"]), let active = Self.number(entry["active_calories"]), total >= active {
                figure(.basalEnergy, total - active)
            }
        }
        return covered
    }

    /// A record or a bucket as a reading; throws why it is refused.
    private static func reading(_ value: Any, array: String, kind: ReadingKind, calendar: Calendar) throws(Refusal) -> HealthConnectReading {
        guard let record = value as? [String: Any] else { throw Refusal("a record that is not an object") }
        guard let source = kind.sources[.healthConnect] else { throw Refusal("not kept") }
        let bucketStart = record["bucket_start"] as? String
        guard let timeText = bucketStart ?? record["time"] as? String ?? record["start_time"] as? String else {
            throw Refusal("a record without a time")
        }
        guard let time = ReadingTime.milliseconds(iso: timeText) else {
            throw Refusal("time \(TextRules.replacingUnsafe(in: String(timeText.prefix(40))).text) is not a real date and time "
                          + "(ISO 8601, an offset within ±14:00)")
        }
        var value: Double
        var key: String
        var samples: Double?
        if bucketStart != nil {
            // A window's sum or mean is in the raw records' unit, which is hmon's for every series kept.
            guard let figure = number(record["total"]) ?? number(record["avg"]) else { throw Refusal("a bucket without total or avg") }
            value = figure
            if record["total"] == nil, kind.deviceTypes.contains(where: { $0.manifest.field(Field.samples) != nil }) {
                // A mean whose device keeps a sample count: one reading per window, a late part merged into it.
                let count = number(record["sample_count"]) ?? 1
                guard HRVFields.isSampleCount(count) else {
                    throw Refusal("sample_count must be a whole number from 1 to 86,400")
                }
                samples = count
                key = "window:\(array):\(time)"
            } else {
                key = "bucket:\(array):\(time):\(number(record["sample_count"]).map { "\($0)" } ?? ""):\(figure)"
            }
        } else if let unit = source.units.sorted(by: { $0.key < $1.key }).first(where: { record[$0.key] != nil }) {
            guard let figure = number(record[unit.key]) else { throw Refusal("\(unit.key) is not a number") }
            value = figure * unit.value
            key = recordKey(record, array: array, time: time)
        } else if let average = number(record["avg"]) {
            // HC Webhook's aggregated point: {time, avg, min, max}.
            value = average
            key = "bucket:\(array):\(time)::\(average)"
        } else {
            throw Refusal("a record without \(source.units.keys.sorted().joined(separator: " or "))")
        }
        do {
            value = try ReadingRules.accepted(value, for: kind.fieldSpec)
        } catch {
            throw Refusal(error.reason)
        }
        var timestamp = time
        if kind == .basalEnergy {
            let day = Day(Date(millisecondsSince1970: time), in: calendar)
            key = "day:\(kind.name):\(day)"
            timestamp = day.start(in: calendar).millisecondsSince1970
        }
        let comment = [record["name"] as? String, record["meal_type"] as? String].compactMap { $0 }.filter { !$0.isEmpty }
        var reading = HealthConnectReading(kind: kind, key: key, timestamp: timestamp, value: value,
                                           comment: kind == .dietaryEnergy && !comment.isEmpty ? comment.joined(separator: ", ") : nil)
        reading.origin = origin(of: record)
        reading.samples = samples
        // The same record's other figures (a blood pressure's diastolic), each checked as its own kind is.
        for (recordKey, field) in source.alongside.sorted(by: { $0.key < $1.key }) {
            guard let raw = record[recordKey] else { continue }
            guard let figure = number(raw), let companion = ReadingKind(field: field) else { throw Refusal("\(recordKey) is not a number") }
            do {
                reading.extras[field] = try ReadingRules.accepted(figure, for: companion.fieldSpec)
            } catch {
                throw Refusal(error.reason)
            }
        }
        return reading
    }

    /// What recorded a record, as the payload names it: HC Webhook's `metadata` (the writing app's package
    /// and the device's maker and model), Life Dashboard Companion's `source` (a raw record's package) or
    /// `sources` (a bucket's). Daily totals and HC Webhook's summed spans name none: Health Connect made them.
    public static func origin(of record: [String: Any]) -> String {
        let metadata = record["metadata"] as? [String: Any]
        let package = metadata?["data_origin"] as? String ?? record["source"] as? String
            ?? (record["sources"] as? [Any])?.compactMap { $0 as? String }.first
        let device = metadata?["device"] as? [String: Any]
        let model = [device?["manufacturer"] as? String, device?["model"] as? String].compactMap { $0 }.joined(separator: " ")
        return ReadingOrigin.text([package.map(ReadingOrigin.appName(package:)), model, "Health Connect"])
    }

    /// Health Connect's sleep stages, by the kind each adds to; `sleeping` (a stage of unknown depth) is time
    /// asleep only, and `unknown` nothing. Life Dashboard Companion names them; HC Webhook writes
    /// `SleepSessionRecord`'s stage constants as strings (`stage.stage.toString()`): 0 unknown, 1 awake,
    /// 2 sleeping, 3 out of bed, 4 light, 5 deep, 6 REM, 7 awake in bed.
    static let sleepStages: [String: (asleep: Bool, kind: ReadingKind?)] = {
        let named: [String: (asleep: Bool, kind: ReadingKind?)] = [
            "light": (true, .coreSleep), "deep": (true, .deepSleep), "rem": (true, .remSleep), "sleeping": (true, nil),
            "awake": (false, .sleepAwake), "awake_in_bed": (false, .sleepAwake), "out_of_bed": (false, .sleepAwake),
            "unknown": (false, nil),
        ]
        let numbers = ["0": "unknown", "1": "awake", "2": "sleeping", "3": "out_of_bed", "4": "light", "5": "deep", "6": "rem",
                       "7": "awake_in_bed"]
        return named.merging(numbers.compactMapValues { named[$0] }) { named, _ in named }
    }()

    /// One reading a night from the payload's sleep sessions, as hmon's other sleep sources make them
    /// (`SleepNights`): a session is a summary of its window (time in bed the session's length, time asleep
    /// its asleep stages, or the whole session when it has none), sessions of two devices over the same
    /// night count once, and the night is named by its day, so a session sent again, or grown, changes it.
    private mutating func sleepNights(_ sessions: [Any], calendar: Calendar) -> [HealthConnectReading] {
        var nights = SleepNights()
        var labels: [Int64: String] = [:]
        for (index, value) in sessions.enumerated() {
            let label = Self.label(value, array: "sleep", index: index)
            guard let session = value as? [String: Any],
                  let endText = session["session_end_time"] as? String ?? session["end_time"] as? String,
                  let end = ReadingTime.milliseconds(iso: endText) else {
                refuse(label, array: "sleep", why: "a session without session_end_time as an ISO 8601 instant")
                continue
            }
            let stages = session["stages"] as? [[String: Any]] ?? []
            func seconds(_ part: [String: Any]) -> Double? {
                if let seconds = Self.number(part["duration_seconds"]) { return seconds }
                guard let start = (part["start_time"] as? String).flatMap(ReadingTime.milliseconds(iso:)),
                      let stop = (part["end_time"] as? String).flatMap(ReadingTime.milliseconds(iso:)), stop > start else { return nil }
                return Double(stop - start) / 1000
            }
            let stageStarts = stages.compactMap { ($0["start_time"] as? String).flatMap(ReadingTime.milliseconds(iso:)) }
            guard let inBed = seconds(session) ?? stageStarts.min().map({ Double(end - $0) / 1000 }), inBed > 0 else {
                refuse(label, array: "sleep", why: "a session without duration_seconds or stages")
                continue
            }
            // Judged before it becomes a number of milliseconds: 1e16 seconds does not fit one.
            guard inBed <= 86_400 else {
                refuse(label, array: "sleep", why: "a session longer than a day")
                continue
            }
            var minutes: [ReadingKind: Double] = [.timeInBed: inBed / 60]
            var asleep = 0.0
            // A stage hmon cannot read refuses its session by name: summed as nothing, it read as no sleep at all.
            let unread = stages.first { stage in
                guard let name = Self.stageName(stage["stage"]) else { return true }
                return Self.sleepStages[name] == nil
            }
            if let unread {
                let shown = TextRules.replacingUnsafe(in: String(String(describing: unread["stage"] ?? "none").prefix(40))).text
                refuse(label, array: "sleep", why: "stage \(shown) is none of Health Connect's (light, deep, rem, sleeping, awake, "
                       + "awake_in_bed, out_of_bed, unknown, or their numbers 0–7)")
                continue
            }
            for stage in stages {
                guard let name = Self.stageName(stage["stage"]), let meaning = Self.sleepStages[name], let length = seconds(stage) else { continue }
                if meaning.asleep { asleep += length / 60 }
                if let kind = meaning.kind { minutes[kind, default: 0] += length / 60 }
            }
            minutes[.sleep] = stages.isEmpty ? inBed / 60 : asleep
            let start = end - Int64(rounding: inBed * 1000)
            nights.add(SleepSummary(startMs: start, endMs: end, source: session["source"] as? String ?? "", minutes: minutes,
                                    intervals: Self.timedStages(stages, sessionStart: start, end: end)))
            labels[end] = label
        }
        return nights.nights(calendar: calendar).compactMap { night -> HealthConnectReading? in
            guard let kind = night.mainKind, let value = night.minutes[kind] else { return nil }
            let label = "\(labels[night.endMs] ?? "sleep") (night of \(night.day))"
            guard night.minutes.values.allSatisfy({ (0...1440).contains($0) }) else {
                refuse(label, array: "sleep", why: "a night longer than a day")
                return nil
            }
            let window = SleepFields.values(of: night)
            let extras = Dictionary(uniqueKeysWithValues: night.minutes.filter { $0.key != kind }.map { ($0.key.field, $0.value) })
                .merging(window.numbers) { mine, _ in mine }
            var reading = HealthConnectReading(kind: kind, key: "night:\(night.day)", timestamp: night.endMs, value: value, extras: extras)
            reading.texts = window.texts
            reading.record = label
            return reading
        }
    }

    /// A session's stages against the clock, for its hypnogram: the session itself in bed, each stage over it;
    /// nil when it has no stages (its time asleep is then the whole session, which no stage shows) or one
    /// without its times.
    static func timedStages(_ stages: [[String: Any]], sessionStart: Int64, end: Int64) -> [SleepSample]? {
        guard !stages.isEmpty else { return nil }
        var timed = [SleepSample(stage: .inBed, startMs: sessionStart, endMs: end, source: "")]
        for stage in stages {
            guard let from = (stage["start_time"] as? String).flatMap(ReadingTime.milliseconds(iso:)),
                  let to = (stage["end_time"] as? String).flatMap(ReadingTime.milliseconds(iso:)),
                  let name = stageName(stage["stage"]) else { return nil }
            guard let shown = sleepStagesDrawn[name] else { continue }
            timed.append(SleepSample(stage: shown, startMs: from, endMs: to, source: ""))
        }
        return timed
    }

    /// How each of Health Connect's stages is drawn; `unknown` is not drawn (nor counted).
    static let sleepStagesDrawn: [String: SleepStage] = {
        let named: [String: SleepStage] = ["light": .core, "deep": .deep, "rem": .rem, "sleeping": .unspecified,
                                           "awake": .awake, "awake_in_bed": .awake, "out_of_bed": .awake]
        let numbers = ["1": "awake", "2": "sleeping", "3": "out_of_bed", "4": "light", "5": "deep", "6": "rem", "7": "awake_in_bed"]
        return named.merging(numbers.compactMapValues { named[$0] }) { named, _ in named }
    }()

    /// A record's own `uuid`; without one (HC Webhook's), what tells it from the others: array, times, app.
    ///
    /// HC Webhook sends steps, distance and active energy by default as one running total a day
    /// (`DataResolution.kt`: `RESOLUTION_DAILY`), `{count, start_time: the phone's midnight, end_time: now}`,
    /// and each sync sends the grown total again with the same start and a later end; its N-minute buckets are
    /// the same, a window re-sent as it fills. Neither carries the `metadata` every raw record has, so such a
    /// record is named by its array and start alone: the later total replaces the earlier, never adds to it.
    private static func recordKey(_ record: [String: Any], array: String, time: Int64) -> String {
        if let uuid = record["uuid"] as? String, !uuid.isEmpty { return "uuid:" + uuid }
        if record["metadata"] == nil, record["source"] == nil, record["end_time"] != nil, record["start_time"] != nil {
            return "span:\(array):\(time)"
        }
        let end = (record["end_time"] as? String).flatMap(ReadingTime.milliseconds(iso:)).map { "\($0)" } ?? ""
        let origin = (record["metadata"] as? [String: Any])?["data_origin"] as? String ?? record["source"] as? String ?? ""
        return "record:\(array):\(time):\(end):\(origin)"
    }

    /// A stage as either app writes it: a name, or a stage constant as text ("4") or as a number.
    private static func stageName(_ value: Any?) -> String? {
        if let name = value as? String { return name }
        if let number = value as? NSNumber, let whole = Int(exactly: number.doubleValue) { return String(whole) }
        return nil
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Int: Double(number)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }

    struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

private extension Error {
    /// The words a refusal gives: a rule's message, else the error's.
    var reason: String {
        switch self {
        case let refusal as HealthConnectPayload.Refusal: refusal.reason
        case let error as HealthError: error.message
        default: "\(self)"
        }
    }
}
