import Foundation
import HealthCore
import HealthModel

/// A Garmin device's FIT files: one `.fit` file, or the `GARMIN/` folder a watch shows over USB (as it is or zipped).
///
/// What a file holds is told by its `file_id` type, not by the folder it sits in: weight (9), blood
/// pressure (14), sleep (49), HRV status (68) and monitoring (32, `GarminMonitoringDays`) files are read
/// whole; the others (activities, settings…) hold nothing hmon imports and are counted as skipped by their
/// type. Every reading lands on the device the file names (`file_id`'s manufacturer, product and serial
/// number), so the same file imported again makes the same readings, which the store already has.
///
/// A sleep file's night: its `sleep_level` messages are each stamped at the end of the stretch they name
/// (as Gadgetbridge reads them, `GadgetbridgeSleep.addGarmin`), the first stretch starting at the sleep
/// event's start (event 74) when the file has one. The nights of every file are then made as every other
/// source's are (`SleepNightReadings`), on the local days of `timeZone`.
///
/// Every file is decoded and checked (its CRC included) before any reading leaves: a damaged file stops
/// the import with its name and byte offset, and nothing of the folder is kept.
enum GarminFIT {
    /// A name FIT files go by (Garmin writes `.FIT` and `.fit`).
    static func isFITFile(_ file: DownloadFile) -> Bool {
        !file.isMacMetadata && file.name.lowercased().hasSuffix(".fit")
    }

    /// The first bytes of a FIT file: a 12- or 14-byte header with ".FIT" at bytes 8–11.
    static func looksLikeFIT(_ head: [UInt8]) -> Bool {
        head.count >= 12 && (head[0] == 12 || head[0] == 14) && head[8..<12].elementsEqual(".FIT".utf8)
    }

    static func read(_ files: [DownloadFile], name: String, timeZone: TimeZone,
                     emit: (ImportedReading) throws -> Void) throws -> ImportTally {
        var tally = ImportTally()
        var nights = SleepNights()
        var monitoring: GarminMonitoringDays? = GarminMonitoringDays(timeZone: timeZone)
        for reading in try collect(files, name: name, nights: &nights, monitoring: &monitoring, tally: &tally) { try emit(reading) }
        try SleepNightReadings.emit(nights, timeZone: timeZone, tally: &tally, emit: emit)
        try monitoring?.emit(tally: &tally, emit: emit)
        return tally
    }

    /// The readings of every FIT file of `files`, counted in `tally`, each file checked whole first; the
    /// stretches of the sleep files go to `nights`, for the caller to make nights of with any others it has.
    /// Monitoring files are counted as skipped: a caller that has the same days from elsewhere (Garmin
    /// Connect's own day summaries) keeps those.
    static func collect(_ files: [DownloadFile], name: String, nights: inout SleepNights,
                        tally: inout ImportTally) throws -> [ImportedReading] {
        var monitoring: GarminMonitoringDays?
        return try collect(files, name: name, nights: &nights, monitoring: &monitoring, tally: &tally)
    }

    /// As `collect(_:name:nights:tally:)`, the monitoring files' messages going to `monitoring` when it is
    /// there, for the caller to make days of once every file is read.
    static func collect(_ files: [DownloadFile], name: String, nights: inout SleepNights, monitoring: inout GarminMonitoringDays?,
                        tally: inout ImportTally) throws -> [ImportedReading] {
        var readings: [ImportedReading] = []
        for file in files where isFITFile(file) {
            let place = files.count == 1 && file.path == name ? name : "\(name)/\(file.path)"
            do {
                readings += try self.readings(of: file, nights: &nights, monitoring: &monitoring, tally: &tally)
            } catch let problem as FITProblem {
                let remedy = problem.offset == 0 ? "is it a FIT file?"
                    : files.count == 1 ? "copy the file from the device again" : "copy the file from the device again, or move it away to import the others"
                throw ImportError(file: place, problem: "\(problem): \(remedy)")
            }
        }
        return readings
    }

    /// The file's first chunk (a megabyte, or all of a smaller file): its `file_id` is in its first hundred
    /// bytes, and a watch's activity files, which hmon does not read, run to megabytes each.
    private static func head(of file: DownloadFile) throws -> [UInt8] {
        struct Enough: Error {}
        var head: [UInt8] = []
        do {
            try file.read { chunk in
                head += chunk
                throw Enough()
            }
        } catch is Enough {}
        return head
    }

    /// The readings of one file, counted in `tally`; none when its type holds nothing hmon imports. A sleep
    /// file's stretches go to `nights` instead, which are made once every file is read.
    private static func readings(of file: DownloadFile, nights: inout SleepNights, monitoring: inout GarminMonitoringDays?,
                                 tally: inout ImportTally) throws -> [ImportedReading] {
        guard let fileID = try FITDecoder.fileID(try head(of: file)) else {
            tally.skippedKinds["FIT file without a file_id message", default: 0] += 1
            return []
        }
        let type = fileID.integer(FITProfile.FileID.type) ?? -1
        if type == FITProfile.FileType.monitoringB, monitoring != nil {
            let messages = try FITDecoder.messages([UInt8](try file.data()))
            monitoring?.add(messages, source: deviceName(fileID), tally: &tally)
            for message in messages where !aboutTheFile(message.global) && !monitoringMessages.contains(message.global) {
                tally.skippedKinds["Garmin \(FITProfile.messageName(message.global))", default: 0] += 1
            }
            return []
        }
        guard FITProfile.FileType.read.contains(type) else {
            tally.skippedKinds["Garmin \(FITProfile.fileTypeName(type)) file", default: 0] += 1
            return []
        }
        let source = deviceName(fileID)
        var readings: [ImportedReading] = []
        var sleepMarks: [GadgetbridgeSleep.Mark] = []
        for message in try FITDecoder.messages([UInt8](try file.data())) {
            switch message.global {
            case FITProfile.SleepLevel.message:
                if let mark = sleepMark(message, tally: &tally) { sleepMarks.append(mark) }
            case FITProfile.Event.message where message.integer(FITProfile.Event.event) == FITProfile.Event.sleep:
                // The night's start: the first stretch runs from it to the first level's time.
                if message.integer(FITProfile.Event.eventType) == FITProfile.Event.start, let time = message.time() {
                    sleepMarks.append(GadgetbridgeSleep.Mark(timeMs: time, code: FITProfile.SleepLevel.unmeasurable))
                }
            case FITProfile.WeightScale.message:
                if let reading = weighIn(message, source: source, tally: &tally) { readings.append(reading) }
            case FITProfile.BloodPressure.message:
                if let reading = bloodPressure(message, source: source, tally: &tally) { readings.append(reading) }
            case FITProfile.HRVStatusSummary.message:
                if let reading = nightlyHRV(message, source: source, tally: &tally) { readings.append(reading) }
            case let global where aboutTheFile(global):
                break
            default:
                tally.skippedKinds["Garmin \(FITProfile.messageName(message.global))", default: 0] += 1
            }
        }
        GadgetbridgeSleep.addGarmin(sleepMarks, source: source, to: &nights)
        return readings
    }

    /// `file_id`, file_creator, device_info, user_profile, software and the developer descriptions: about the
    /// file, not readings.
    private static func aboutTheFile(_ global: UInt16) -> Bool {
        [FITProfile.FileID.message, 49, 23, 3, 35, 206, 207].contains(global)
    }

    /// The messages a monitoring file's days are made of.
    private static let monitoringMessages: Set<UInt16> = [
        FITProfile.Monitoring.message, FITProfile.MonitoringInfo.message, FITProfile.MonitoringHRData.message,
    ]

    /// A `sleep_level` message: its time and level, the end of the stretch it names.
    private static func sleepMark(_ message: FITMessage, tally: inout ImportTally) -> GadgetbridgeSleep.Mark? {
        guard let time = message.time() else {
            tally.skip(.sleep, "Garmin sleep level without a time")
            return nil
        }
        guard let level = message.integer(FITProfile.SleepLevel.level) else {
            tally.skip(.sleep, "Garmin sleep level without a level")
            return nil
        }
        return GadgetbridgeSleep.Mark(timeMs: time, code: Int64(level))
    }

    /// "Garmin product 2429 (serial 3912345678)": the manufacturer and product as numbers the profile
    /// gives, or the product's name when the file writes it.
    static func deviceName(_ fileID: FITMessage) -> String {
        let manufacturer = fileID.integer(FITProfile.FileID.manufacturer).map(FITProfile.manufacturerName) ?? "Garmin"
        var name = manufacturer
        if let product = fileID.text(FITProfile.FileID.productName) {
            name += " " + product
        } else if let product = fileID.integer(FITProfile.FileID.product) {
            name += " product \(product)"
        }
        if let serial = fileID.integer(FITProfile.FileID.serialNumber) { name += " (serial \(serial))" }
        return name
    }

    /// A `weight_scale` message: the weight, with body fat, body water, bone and muscle mass beside it.
    private static func weighIn(_ message: FITMessage, source: String, tally: inout ImportTally) -> ImportedReading? {
        let fields = FITProfile.WeightScale.self
        guard let time = message.time() else {
            tally.skip(.weight, "Garmin weigh-in without a time")
            return nil
        }
        guard let raw = message.value(fields.weight), message.integer(fields.weight) != fields.calculating else {
            tally.skip(.weight, message.fields[fields.weight] == nil ? "Garmin weigh-in without a weight" : "Garmin weigh-in the scale was still calculating")
            return nil
        }
        let kg = raw / fields.scale
        guard ReadingKind.weight.saneRange.contains(kg) else {
            tally.skip(.weight, UnitConversion.outOfRangeReason(.weight))
            return nil
        }
        var extras: [String: Double] = [:]
        if let fat = message.value(fields.percentFat, scale: fields.scale), ReadingKind.bodyFat.saneRange.contains(fat) {
            extras[ReadingKind.bodyFat.field] = fat
        }
        if let water = message.value(fields.percentHydration, scale: fields.scale), water > 0, water < 100 {
            extras[ReadingKind.bodyWaterPercentage.field] = water
        }
        if let bone = message.value(fields.boneMass, scale: fields.scale), bone > 0, bone < kg {
            extras[ReadingKind.boneMass.field] = bone
        }
        if let muscle = message.value(fields.muscleMass, scale: fields.scale), muscle > 0, muscle < kg {
            extras[ReadingKind.muscleMass.field] = muscle
        }
        tally.kept[.weight, default: 0] += 1
        return ImportedReading(kind: .weight, source: source, timestamp: time, value: kg, extras: extras)
    }

    /// A `blood_pressure` message: one measurement, the systolic reading with the diastolic and the pulse
    /// beside it; a lone half is kept under its own kind.
    private static func bloodPressure(_ message: FITMessage, source: String, tally: inout ImportTally) -> ImportedReading? {
        let fields = FITProfile.BloodPressure.self
        let upper = message.value(fields.systolic)
        let lower = message.value(fields.diastolic)
        let kind: ReadingKind = upper == nil && lower != nil ? .bloodPressureDiastolic : .bloodPressureSystolic
        guard let time = message.time() else {
            tally.skip(kind, "Garmin blood pressure without a time")
            return nil
        }
        guard let value = upper ?? lower else {
            tally.skip(kind, "Garmin blood pressure without a systolic or diastolic figure")
            return nil
        }
        guard kind.saneRange.contains(value) else {
            tally.skip(kind, UnitConversion.outOfRangeReason(kind))
            return nil
        }
        var extras: [String: Double] = [:]
        if kind == .bloodPressureSystolic, let lower, ReadingKind.bloodPressureDiastolic.saneRange.contains(lower) {
            extras[Field.diastolic] = lower
        }
        if let pulse = message.value(fields.heartRate), pulse > 0, ReadingKind.heartRate.range?.contains(pulse) ?? true {
            extras[Field.heartRate] = pulse
        }
        tally.kept[kind, default: 0] += 1
        return ImportedReading(kind: kind, source: source, timestamp: time, value: value, extras: extras)
    }

    /// An `hrv_status_summary` message: last night's average RMSSD, Garmin's own nightly HRV figure.
    private static func nightlyHRV(_ message: FITMessage, source: String, tally: inout ImportTally) -> ImportedReading? {
        let kind = ReadingKind.heartRateVariabilityFromBeats
        guard let time = message.time() else {
            tally.skip(kind, "Garmin HRV status without a time")
            return nil
        }
        guard let rmssd = message.value(FITProfile.HRVStatusSummary.lastNightAverage, scale: FITProfile.HRVStatusSummary.scale) else {
            tally.skip(kind, "Garmin HRV status without last night's average")
            return nil
        }
        guard kind.saneRange.contains(rmssd) else {
            tally.skip(kind, UnitConversion.outOfRangeReason(kind))
            return nil
        }
        tally.kept[kind, default: 0] += 1
        return ImportedReading(kind: kind, source: source, timestamp: time, value: rmssd, texts: [Field.source: HRVSource.watch.rawValue])
    }
}
