import Foundation
import CheckedNumbers
import HealthCore
import HealthModel

/// The JSON files of Garmin Connect's export that hold readings, each an array of records
/// (`JSONArrayRecords`), shaped as published importers of real exports read them (garmin-grafana's bulk
/// importer, see `Tests/ReferenceScripts/make_garmin_export_fixture.py`):
///
/// - `…_userBioMetrics.json`: a record a change of the profile's figures; a weigh-in's has a `weight` object,
///   `weight` in grams, `bodyFat` and `bodyWater` in %, `boneMass` and `muscleMass` in grams, `sourceType`
///   and `timestampGMT` (UTC text like "2026-03-14T06:40:00.0", or ms since the epoch).
/// - `…_sleepData.json`: a record a night, `sleepStartTimestampGMT` and `sleepEndTimestampGMT` (UTC text) and
///   the seconds of each stage (`deepSleepSeconds`, `lightSleepSeconds`, `remSleepSeconds`,
///   `awakeSleepSeconds`): Garmin's totals, without the stretches' times.
/// - `UDSFile_….json`: a record a day (`calendarDate`), its `totalSteps`, `activeKilocalories` and resting
///   heart rate.
enum GarminConnectWellness {
    /// The device the export's own figures land on: Garmin Connect names no device for them.
    static let source = "Garmin Connect"

    static func isBiometricsFile(_ file: DownloadFile) -> Bool { file.name.hasSuffix("userBioMetrics.json") }
    static func isSleepFile(_ file: DownloadFile) -> Bool { file.name.hasSuffix("_sleepData.json") }
    static func isDaySummaryFile(_ file: DownloadFile) -> Bool { file.name.hasPrefix("UDSFile") && file.name.hasSuffix(".json") }

    private static let utc = TimeZone(identifier: "UTC")!

    /// A time in UTC: Garmin's text ("2026-03-14T06:40:00.0", a "Z" or none after it) or ms since the epoch.
    static func gmt(_ value: JSONScalar?) -> Int64? {
        switch value {
        case .number(let text)?:
            return Double(text).flatMap { $0.isFinite && abs($0) < 1e15 ? Int64(rounding: $0) : nil }
        case .string(let text)?:
            let bare = text.hasSuffix("Z") ? String(text.dropLast()) : text
            return CSVDates.timestamp(date: bare, time: nil, in: utc)
        default:
            return nil
        }
    }

    /// A weigh-in of `…_userBioMetrics.json`, in kg with its body composition; nil (counted) for a record
    /// that is none: no weight (the height, a VO2 max), the profile's weight setting, no time.
    static func weighIns(_ file: DownloadFile, download: String, tally: inout ImportTally) throws -> [ImportedReading] {
        var counts = tally
        var readings: [ImportedReading] = []
        try JSONArrayRecords.read(file, download: download, flatteningOneLevel: true) { fields, path in
            guard let grams = fields["weight.weight"]?.number else {
                counts.skippedKinds["Garmin Connect biometrics without a weight (height, VO2 max, …)", default: 0] += 1
                return
            }
            if fields["weight.sourceType"]?.text == "USER_SETTING" {
                counts.skip(.weight, "Garmin Connect profile weight (a setting, not a weigh-in)")
                return
            }
            guard let time = gmt(fields["weight.timestampGMT"]) else {
                counts.skip(.weight, "Garmin Connect weigh-in without a time")
                return
            }
            let kg = grams / 1000
            guard ReadingKind.weight.saneRange.contains(kg) else {
                counts.skip(.weight, UnitConversion.outOfRangeReason(.weight))
                return
            }
            // A 0 is a figure the scale could not measure (its electrodes had no contact), not a measurement.
            var extras: [String: Double] = [:]
            if let fat = fields["weight.bodyFat"]?.number, fat > 0, ReadingKind.bodyFat.saneRange.contains(fat) {
                extras[ReadingKind.bodyFat.field] = fat
            }
            if let water = fields["weight.bodyWater"]?.number, water > 0, water < 100 {
                extras[ReadingKind.bodyWaterPercentage.field] = water
            }
            if let bone = fields["weight.boneMass"]?.number.map({ $0 / 1000 }), bone > 0, bone < kg {
                extras[ReadingKind.boneMass.field] = bone
            }
            if let muscle = fields["weight.muscleMass"]?.number.map({ $0 / 1000 }), muscle > 0, muscle < kg {
                extras[ReadingKind.muscleMass.field] = muscle
            }
            readings.append(ImportedReading(kind: .weight, source: source, timestamp: time, value: kg, extras: extras))
        }
        tally = counts
        return readings
    }

    /// The nights of `…_sleepData.json` as totals with their window (`SleepSummary`).
    static func nights(_ file: DownloadFile, download: String, tally: inout ImportTally) throws -> [SleepSummary] {
        var counts = tally
        var found: [SleepSummary] = []
        try JSONArrayRecords.read(file, download: download, flatteningOneLevel: true) { fields, path in
            guard let start = gmt(fields["sleepStartTimestampGMT"]), let end = gmt(fields["sleepEndTimestampGMT"]) else {
                // Garmin writes a record for each day, also for one without a night.
                counts.skip(.sleep, "Garmin Connect day without a night's times")
                return
            }
            guard end > start, end - start <= 86_400_000 else {
                throw JSONProblem(path: path.member("sleepEndTimestampGMT"), message: "must be after sleepStartTimestampGMT, within a day")
            }
            var minutes: [ReadingKind: Double] = [:]
            for (key, kind) in [("deepSleepSeconds", ReadingKind.deepSleep), ("lightSleepSeconds", .coreSleep),
                                ("remSleepSeconds", .remSleep), ("awakeSleepSeconds", .sleepAwake)] {
                guard let value = fields[key] else { continue }
                guard let seconds = value.number, seconds >= 0, seconds <= 86_400 else {
                    if value == .null { continue }
                    throw JSONProblem(path: path.member(key), message: "must be a number of seconds up to a day")
                }
                minutes[kind] = seconds / 60
            }
            let asleep = [ReadingKind.deepSleep, .coreSleep, .remSleep].compactMap { minutes[$0] }
            guard !asleep.isEmpty else {
                counts.skip(.sleep, "Garmin Connect night without its stages' seconds")
                return
            }
            minutes[.sleep] = asleep.reduce(0, +)
            found.append(SleepSummary(startMs: start, endMs: end, source: source, minutes: minutes))
        }
        tally = counts
        return found
    }

    /// A day of `UDSFile_….json`: its steps and active energy as the day's totals, its resting heart rate, all
    /// at noon of the day in `zone`, as the other sources' day figures are kept.
    static func days(_ file: DownloadFile, download: String, zone: TimeZone, tally: inout ImportTally) throws -> [ImportedReading] {
        var counts = tally
        var readings: [ImportedReading] = []
        try JSONArrayRecords.read(file, download: download, flatteningOneLevel: true) { fields, path in
            if fields.keys.contains(where: { $0.hasPrefix("hydration.") }) {
                counts.skippedKinds["Garmin Connect hydration day", default: 0] += 1
                return
            }
            guard let date = fields["calendarDate"]?.text else {
                throw JSONProblem(path: path.member("calendarDate"), message: "is required, like \"2026-03-14\"")
            }
            guard date.count == 10, let noon = CSVDates.timestamp(date: date, time: "12:00", in: zone) else {
                throw JSONProblem(path: path.member("calendarDate"), message: "\"\(date.prefix(30))\" is not a day like 2026-03-14")
            }
            // A day the watch sent nothing for is written with zeros: no figure of it is a measurement.
            if fields["includesWellnessData"] == .bool(false) {
                counts.skippedKinds["Garmin Connect day without the watch's data", default: 0] += 1
                return
            }
            // Garmin's own figure of the day's resting heart rate, the plain field when the day's is absent.
            let resting = fields["currentDayRestingHeartRate"]?.number ?? fields["restingHeartRate"]?.number
            for (kind, value, isTotal) in [(ReadingKind.steps, fields["totalSteps"]?.number, true),
                                           (.activeEnergy, fields["activeKilocalories"]?.number, true),
                                           (.restingHeartRate, resting, false)] {
                guard let value else { continue }
                let figure = kind == .steps ? Double(Int64(rounding: value)) : value
                guard kind.saneRange.contains(figure), kind != .restingHeartRate || figure > 0 else {
                    counts.skip(kind, UnitConversion.outOfRangeReason(kind))
                    continue
                }
                readings.append(ImportedReading(kind: kind, source: source, timestamp: noon, value: figure, isSpanTotal: isTotal))
            }
        }
        tally = counts
        return readings
    }
}
