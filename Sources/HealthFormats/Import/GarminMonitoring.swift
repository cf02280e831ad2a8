import CheckedNumbers
import Foundation
import HealthCore
import HealthModel

/// A watch's monitoring files (`file_id` type 32, monitoring_b, under `GARMIN/Monitor/`), made into a
/// reading a local day of each figure the watch keeps for the day: its resting heart rate, its steps and its
/// active energy. A day's figures may come from several files (a watch starts a new one every few hours),
/// so every file of the import is read before any day is made.
///
/// - `monitoring_hr_data` (211): Garmin's resting heart rate, the day's own figure
///   (`current_day_resting_heart_rate`) or, before the watch has one, the seven-day figure
///   (`resting_heart_rate`), as the Garmin Connect export's days are read. The day's last message wins: the
///   watch revises the figure as the day goes on.
/// - `monitoring` (55): `cycles` (steps for walking and running, per the profile's `steps` sub-field) and
///   `active_calories` are counts since local midnight, one count per activity type (field 5, or the low
///   five bits of `current_activity_type_intensity`). A day's figure is the sum over its activity types of
///   the largest count of the day. A count stamped at local midnight itself is the day before's close (as
///   GarminDB reads them), not the new day's start.
/// - A message without a full `timestamp` carries `timestamp_16`, the time's low 16 bits, read against the
///   file's last full time (Garmin's FIT protocol, "compressed timestamps" in a field).
/// - The local day is the watch's: `monitoring_info`'s `local_timestamp` less its `timestamp` is the watch's
///   offset from UTC; a file without one is read on `timeZone`'s days.
///
/// Each day's readings are stamped at noon of the day in the import's time zone and marked a span's total,
/// as the Garmin Connect and Gadgetbridge days are: the same day from a later copy of the folder, holding
/// more of it, is never a second reading beside the first: the store replaces the day's figures with the
/// later ones. The heart rate a minute
/// (`heart_rate`) is counted, not kept, as every import's heart rate a minute is.
struct GarminMonitoringDays {
    static let perMinuteHeartRate = "heart rate a minute (Garmin monitoring)"

    private struct Day: Hashable, Comparable {
        var source: String
        /// Days since 1970-01-01 on the watch's calendar.
        var day: Int64
        static func < (a: Day, b: Day) -> Bool { (a.day, a.source) < (b.day, b.source) }
    }

    private struct Count: Hashable {
        var day: Day
        var activityType: Int
    }

    /// The zone whose days a file without the watch's offset is read on, and whose noon stamps each day.
    let timeZone: TimeZone
    private var resting: [Day: (time: Int64, bpm: Double)] = [:]
    private var steps: [Count: Double] = [:]
    private var activeKcal: [Count: Double] = [:]

    /// The profile's `activity_type`s whose `cycles` are steps (the `steps` sub-field): running and walking.
    private static let stepping: Set<Int> = [1, 6]

    /// Reads one monitoring file's messages, in the file's order.
    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    mutating func add(_ messages: [FITMessage], source: String, tally: inout ImportTally) {
        let offset = Self.watchOffset(messages)
        var lastFull: UInt32?
        for message in messages {
            let full = Self.fullTime(message)
            if let full { lastFull = full }
            switch message.global {
            case FITProfile.Monitoring.message:
                let time = full ?? Self.time16(message, after: lastFull)
                count(message, seconds: time, source: source, offset: offset, tally: &tally)
            case FITProfile.MonitoringHRData.message:
                restingHeartRate(message, seconds: full, source: source, offset: offset, tally: &tally)
            default:
                break
            }
        }
    }

    /// Hands on each day's readings, oldest day first.
    func emit(tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws {
        for (day, reading) in resting.sorted(by: { $0.key < $1.key }) {
            try keep(.restingHeartRate, reading.bpm, day: day, tally: &tally, emit: emit)
        }
        for (kind, counts) in [(ReadingKind.steps, steps), (.activeEnergy, activeKcal)] {
            var days: [Day: Double] = [:]
            for (count, value) in counts { days[count.day, default: 0] += value }
            for (day, total) in days.sorted(by: { $0.key < $1.key }) {
                try keep(kind, total, day: day, tally: &tally, emit: emit)
            }
        }
    }

    private func keep(_ kind: ReadingKind, _ value: Double, day: Day, tally: inout ImportTally,
                      emit: (ImportedReading) throws -> Void) throws {
        guard kind.saneRange.contains(value) else {
            tally.skip(kind, UnitConversion.outOfRangeReason(kind))
            return
        }
        guard let noon = DayNumbers.noon(of: day.day, in: timeZone) else {
            tally.skip(kind, "Garmin monitoring day outside the calendar")
            return
        }
        tally.kept[kind, default: 0] += 1
        try emit(ImportedReading(kind: kind, source: day.source, timestamp: noon, value: value, isSpanTotal: true))
    }

    /// A `monitoring` message's counts of the day for its activity type; its heart rate is only counted.
    private mutating func count(_ message: FITMessage, seconds: UInt32?, source: String, offset: Int64?, tally: inout ImportTally) {
        let fields = FITProfile.Monitoring.self
        if message.fields[fields.heartRate] != nil {
            tally.skippedKinds[Self.perMinuteHeartRate, default: 0] += 1
        }
        let cycles = message.integer(fields.cycles)
        let kcal = message.integer(fields.activeCalories)
        guard cycles != nil || kcal != nil else { return }
        let kind: ReadingKind = kcal != nil && cycles == nil ? .activeEnergy : .steps
        guard let seconds else {
            tally.skip(kind, "Garmin monitoring count without a time")
            return
        }
        guard let type = message.integer(fields.activityType) ?? Self.activityTypeOfIntensityByte(message) else {
            tally.skip(kind, "Garmin monitoring count without its activity type")
            return
        }
        // Stamped at local midnight: the close of the day before.
        guard let local = Self.localSeconds(seconds, offset: offset, timeZone: timeZone) else { return }
        let day = Day(source: source, day: DayNumbers.day(ofLocalSeconds: local % 86_400 == 0 ? local - 1 : local))
        let key = Count(day: day, activityType: type)
        if let cycles, Self.stepping.contains(type) {
            steps[key] = max(steps[key] ?? 0, Double(cycles))
        }
        if let kcal {
            activeKcal[key] = max(activeKcal[key] ?? 0, Double(kcal))
        }
    }

    /// A `monitoring_hr_data` message: the day's resting heart rate, the latest of the day kept.
    private mutating func restingHeartRate(_ message: FITMessage, seconds: UInt32?, source: String, offset: Int64?,
                                           tally: inout ImportTally) {
        let fields = FITProfile.MonitoringHRData.self
        guard let seconds, let local = Self.localSeconds(seconds, offset: offset, timeZone: timeZone) else {
            tally.skip(.restingHeartRate, "Garmin resting heart rate without a time")
            return
        }
        guard let bpm = message.value(fields.currentDayResting) ?? message.value(fields.resting), bpm > 0 else {
            tally.skip(.restingHeartRate, "Garmin resting heart rate without a figure")
            return
        }
        guard ReadingKind.restingHeartRate.saneRange.contains(bpm) else {
            tally.skip(.restingHeartRate, UnitConversion.outOfRangeReason(.restingHeartRate))
            return
        }
        let day = Day(source: source, day: DayNumbers.day(ofLocalSeconds: local))
        let time = Int64(seconds)
        if let kept = resting[day] {
            // One reading a day: the day's other figures are counted, the latest kept.
            tally.skippedKinds["Garmin resting heart rate the watch revised later that day", default: 0] += 1
            if kept.time > time { return }
        }
        resting[day] = (time, bpm)
    }

    /// A message's full `timestamp` as a `date_time` (seconds since the FIT epoch); nil when absent or not a date.
    private static func fullTime(_ message: FITMessage) -> UInt32? {
        guard case .unsigned(let values)? = message.fields[FITProfile.timestampField], let first = values.first,
              let seconds = UInt32(exactly: first), UInt64(seconds) >= FITProfile.minimumDateTime else { return nil }
        return seconds
    }

    /// `timestamp_16` against the last full time: the 16 low bits, rolled over at most once.
    private static func time16(_ message: FITMessage, after last: UInt32?) -> UInt32? {
        guard let last, let low = message.integer(FITProfile.Monitoring.timestamp16), let low16 = UInt16(exactly: low) else { return nil }
        return last &+ UInt32(low16 &- UInt16(truncatingIfNeeded: last))
    }

    /// The watch's offset from UTC in seconds: `monitoring_info`'s `local_timestamp` less its `timestamp`,
    /// when it is a whole quarter of an hour within a day (every zone's offset is).
    private static func watchOffset(_ messages: [FITMessage]) -> Int64? {
        for message in messages where message.global == FITProfile.MonitoringInfo.message {
            // A `local_date_time` is a uint32 like a `date_time`: a wider or signed value is no time.
            guard let utc = fullTime(message),
                  let local = message.integer(FITProfile.MonitoringInfo.localTimestamp).flatMap(UInt32.init(exactly:)) else { continue }
            let offset = Int64(local) - Int64(utc)
            if abs(offset) <= 14 * 3600, offset % 900 == 0 { return offset }
        }
        return nil
    }

    /// The `activity_type` component (the low five bits) of `current_activity_type_intensity`.
    private static func activityTypeOfIntensityByte(_ message: FITMessage) -> Int? {
        guard case .bytes(let bytes)? = message.fields[FITProfile.Monitoring.activityTypeIntensity], let first = bytes.first else { return nil }
        return Int(first & 0x1F)
    }

    /// A `date_time` as seconds since the Unix epoch on the watch's clock.
    private static func localSeconds(_ seconds: UInt32, offset: Int64?, timeZone: TimeZone) -> Int64? {
        let unix = Int64(seconds) + FITProfile.unixSecondsAtFITEpoch
        let shift = offset ?? Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unix))))
        return unix + shift
    }
}
