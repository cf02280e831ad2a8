import Foundation
import HealthModel

/// One document of `GET /v2/usercollection/sleep` (Oura's `SleepModel`), the fields hmon reads. Durations
/// are seconds; `average_hrv` is the ring's RMSSD over the period in ms; `lowest_heart_rate` in b/min;
/// `average_breath` the breathing rate over the period in breaths a minute. Oura's other fields (scores,
/// 5-minute series, efficiency, latency) are not read.
public struct OuraSleep: Decodable, Sendable, Equatable {
    public var id: String
    public var day: String
    public var bedtime_start: String
    public var bedtime_end: String
    /// `long_sleep`, `sleep`, `late_nap`, `rest` or `deleted`.
    public var type: String?
    public var average_hrv: Double?
    public var lowest_heart_rate: Double?
    public var total_sleep_duration: Double?
    public var time_in_bed: Double?
    public var deep_sleep_duration: Double?
    public var rem_sleep_duration: Double?
    public var light_sleep_duration: Double?
    public var awake_time: Double?
    public var average_breath: Double?

    public init(id: String, day: String, bedtime_start: String, bedtime_end: String, type: String?, average_hrv: Double?,
                lowest_heart_rate: Double?, total_sleep_duration: Double?, time_in_bed: Double?, deep_sleep_duration: Double?,
                rem_sleep_duration: Double?, light_sleep_duration: Double?, awake_time: Double?, average_breath: Double? = nil) {
        self.id = id
        self.day = day
        self.bedtime_start = bedtime_start
        self.bedtime_end = bedtime_end
        self.type = type
        self.average_hrv = average_hrv
        self.lowest_heart_rate = lowest_heart_rate
        self.total_sleep_duration = total_sleep_duration
        self.time_in_bed = time_in_bed
        self.deep_sleep_duration = deep_sleep_duration
        self.rem_sleep_duration = rem_sleep_duration
        self.light_sleep_duration = light_sleep_duration
        self.awake_time = awake_time
        self.average_breath = average_breath
    }
}

/// One reading taken from Oura's sleep documents, before it is stored.
public struct OuraReading: Sendable, Equatable {
    public var kind: ReadingKind
    /// What names it across pulls, the source of its id (`OuraArrival.mid`): `night:DAY` for a night (made
    /// of every sleep period of that day), `hrv:ID` and `lowest:ID` for the figures of Oura's long sleep `ID`.
    public var key: String
    /// ms since the epoch: when the period ended.
    public var timestamp: Int64
    public var value: Double
    /// Figures kept beside the value in the same reading, by field: a night's stages beside its time asleep.
    public var extras: [String: Double] = [:]
}

/// Oura's sleep documents as hmon keeps them: one reading a night, on the day it ends (`SleepNights`: a
/// nap's minutes add to its day), with the time asleep and in bed and the stages; and of each night's long
/// sleep, Oura's HRV (`average_hrv`, an RMSSD, kept as the ring's own figure beside hmon's), its lowest
/// heart rate (kept as that day's resting heart rate) and its breathing rate (`average_breath`, kept as the
/// night's respiratory rate, the figure Apple Health and Health Connect keep from sleep as well).
public struct OuraNights: Sendable {
    public var readings: [OuraReading] = []
    /// Documents not kept, counted by why ("type rest: rest mode, not sleep").
    public var skipped: [String: Int] = [:]

    /// Periods that are sleep. `rest` is a rest-mode period (the person said they were ill), `deleted` one
    /// the person deleted in the app: neither is a night's sleep.
    static let keptTypes: Set<String> = ["long_sleep", "sleep", "late_nap"]

    public init(_ documents: [OuraSleep]) {
        var byDay: [Day: SleepNights] = [:]
        var calendars: [Day: Calendar] = [:]
        for document in documents {
            let type = document.type ?? "sleep"
            guard Self.keptTypes.contains(type) else {
                // Oura's word, made safe to print: it comes from outside.
                let name = TextRules.replacingUnsafe(in: String(type.prefix(40))).text
                skipped["type \(name): \(type == "rest" ? "rest mode, not sleep" : "not sleep")", default: 0] += 1
                continue
            }
            guard let start = OuraTime.date(document.bedtime_start), let end = OuraTime.date(document.bedtime_end), end > start,
                  let offset = OuraTime.offsetSeconds(document.bedtime_end), let zone = TimeZone(secondsFromGMT: offset) else {
                skipped["a period without bedtime_start and bedtime_end as ISO 8601 times", default: 0] += 1
                continue
            }
            // The day is read in the ring's own zone, the offset Oura wrote the end with.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let endMs = end.millisecondsSince1970
            let day = SleepNights.day(endingAt: endMs, calendar: calendar)
            var minutes: [ReadingKind: Double] = [:]
            for (kind, seconds) in [(ReadingKind.sleep, document.total_sleep_duration), (.timeInBed, document.time_in_bed),
                                    (.deepSleep, document.deep_sleep_duration), (.remSleep, document.rem_sleep_duration),
                                    (.coreSleep, document.light_sleep_duration), (.sleepAwake, document.awake_time)] {
                if let seconds { minutes[kind] = seconds / 60 }
            }
            byDay[day, default: SleepNights()].add(SleepSummary(startMs: start.millisecondsSince1970, endMs: endMs, source: "Oura", minutes: minutes))
            calendars[day] = calendars[day] ?? calendar
            if type == "long_sleep" { figures(of: document, endMs: endMs) }
        }
        for day in byDay.keys.sorted() {
            for night in byDay[day]!.nights(calendar: calendars[day]!) where night.day == day { keep(night) }
        }
    }

    private mutating func keep(_ night: SleepNight) {
        guard let kind = night.mainKind, let value = night.minutes[kind] else { return }
        guard night.minutes.values.allSatisfy({ (0...1440).contains($0) }) else {
            skipped["a night longer than a day", default: 0] += 1
            return
        }
        let extras = Dictionary(uniqueKeysWithValues: night.minutes.filter { $0.key != kind }.map { ($0.key.field, $0.value) })
        readings.append(OuraReading(kind: kind, key: "night:\(night.day)", timestamp: night.endMs, value: value, extras: extras))
    }

    /// The long sleep's HRV, lowest heart rate and breathing rate, each when Oura measured it and it is a
    /// figure a reading may hold.
    private mutating func figures(of document: OuraSleep, endMs: Int64) {
        for (kind, key, field, value) in [(ReadingKind.heartRateVariabilityFromBeats, "hrv", "average_hrv", document.average_hrv),
                                          (.restingHeartRate, "lowest", "lowest_heart_rate", document.lowest_heart_rate),
                                          (.respiratoryRate, "breath", "average_breath", document.average_breath)] {
            guard let value else { continue }
            do {
                let accepted = try ReadingRules.accepted(kind.fieldType == .integer ? value.rounded() : value, for: kind.fieldSpec)
                readings.append(OuraReading(kind: kind, key: "\(key):\(document.id)", timestamp: endMs, value: accepted))
            } catch {
                skipped["\(field) outside what a reading may hold", default: 0] += 1
            }
        }
    }

    /// What was not kept, as a person reads it: "1 sleep period skipped (type rest: rest mode, not sleep)".
    public var skippedText: [String] {
        skipped.sorted { $0.key < $1.key }.map { "\($0.value) sleep period\($0.value == 1 ? "" : "s") skipped (\($0.key))" }
    }
}
