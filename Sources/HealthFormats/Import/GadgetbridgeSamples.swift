import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// Reads the sample tables of a Gadgetbridge database: what is a reading a sample goes out as it is read;
/// the days' totals and the nights, which need all their rows, go out in `finish`.
struct GadgetbridgeSamples {
    let file: SQLiteFile
    let devices: [Int64: String]
    let zone: TimeZone
    private var steps = GadgetbridgeDaySums()
    private var activeKcal = GadgetbridgeDaySums()
    private var xiaomiWindows: [Int64: [(startMs: Int64, endMs: Int64)]] = [:]
    private var xiaomiStages: [Int64: [GadgetbridgeSleep.Mark]] = [:]
    private var garminStages: [Int64: [GadgetbridgeSleep.Mark]] = [:]
    /// Minutes (or Huawei's blocks) asleep from the activity samples.
    private var sampleSleep = SleepNights()

    init(file: SQLiteFile, devices: [Int64: String], zone: TimeZone) {
        self.file = file
        self.devices = devices
        self.zone = zone
    }

    /// 1970 to the end of 2099, ms: a time outside is a broken row, and within it the nights' and days'
    /// arithmetic cannot overflow.
    static let plausibleTimes: ClosedRange<Int64> = 0...4_102_444_799_999

    /// The source a device's readings carry: its name in hmon.
    private func source(_ deviceID: Int64) -> String { devices[deviceID] ?? "Gadgetbridge device \(deviceID)" }

    /// Reads one table; returns how many rows it had.
    mutating func read(_ table: GadgetbridgeTable, tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws -> Int {
        let columns = table.columns.map(SQLiteFile.quoted).joined(separator: ", ")
        let sql = "SELECT \(columns) FROM \(SQLiteFile.quoted(table.name))"
        var rows = 0
        var counts = tally
        try file.rows(sql) { row in
            rows += 1
            guard let stamp = row.int(0), let device = row.int(1) else { return }
            guard let time = table.timestampInSeconds ? Int64(millisecondsFromSeconds: stamp) : stamp,
                  Self.plausibleTimes.contains(time) else {
                counts.skip("\(table.name) row dated before 1970 or after 2099")
                return
            }
            switch table.role {
            case .activity(let kcalColumn, let sleep):
                if let count = row.int(2), count > 0 { steps.add(Double(count), source: source(device), at: time, zone: zone) }
                if let rate = row.int(3), Gadgetbridge.validHeartRate.contains(rate) {
                    counts.skippedKinds[Gadgetbridge.perMinuteHeartRate, default: 0] += 1
                }
                if kcalColumn != nil, let kcal = row.int(4), kcal > 0 {
                    activeKcal.add(Double(kcal), source: source(device), at: time, zone: zone)
                }
                if let sleep { addSleep(marked: sleep, from: kcalColumn == nil ? 4 : 5, of: row, table: table, at: time, device: device) }
            case .value(let kind, _):
                guard let value = row.double(2) else {
                    counts.skip(kind, "\(table.name) row without a value")
                    return
                }
                guard kind.saneRange.contains(value) else {
                    counts.skip(kind, UnitConversion.outOfRangeReason(kind))
                    return
                }
                counts.kept[kind, default: 0] += 1
                // A watch's HRV summary is its own figure, not one hmon computed from beats.
                let texts = kind == .heartRateVariabilityFromBeats ? [Field.source: HRVSource.watch.rawValue] : [:]
                try emit(ImportedReading(kind: kind, source: source(device), timestamp: time, value: value, texts: texts))
            case .xiaomiSleepTimes:
                if let wakeup = row.int(2), Self.plausibleTimes.contains(wakeup) { xiaomiWindows[device, default: []].append((time, wakeup)) }
            case .xiaomiSleepStages:
                if let code = row.int(2) { xiaomiStages[device, default: []].append(.init(timeMs: time, code: code)) }
            case .garminSleepStages:
                if let code = row.int(2) { garminStages[device, default: []].append(.init(timeMs: time, code: code)) }
            case .sleepMarks(let coding):
                addSleep(marked: coding, from: 2, of: row, table: table, at: time, device: device)
            }
        }
        tally = counts
        return rows
    }

    /// The stretch asleep a sample marks in its kind (column `first`) and the columns after it, if any.
    private mutating func addSleep(marked coding: GadgetbridgeSleep.MinuteCoding, from first: Int32, of row: SQLiteFile.Row,
                                   table: GadgetbridgeTable, at time: Int64, device: Int64) {
        guard let kind = row.int(first),
              let stretch = coding.stretch(at: time, kind: kind, (first + 1..<Int32(table.columns.count)).map { row.int($0) }) else { return }
        sampleSleep.add(SleepSample(stage: stretch.stage, startMs: time, endMs: stretch.endMs, source: source(device)))
    }

    /// The days' steps and active energy, and the nights.
    func finish(tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws {
        try steps.emit(.steps, zone: zone, tally: &tally, emit: emit)
        try activeKcal.emit(.activeEnergy, zone: zone, tally: &tally, emit: emit)
        var nights = sampleSleep
        for (device, windows) in xiaomiWindows {
            GadgetbridgeSleep.addXiaomi(windows: windows, stages: xiaomiStages[device] ?? [], source: source(device), to: &nights)
        }
        for (device, marks) in garminStages {
            GadgetbridgeSleep.addGarmin(marks, source: source(device), to: &nights)
        }
        try SleepNightReadings.emit(nights, timeZone: zone, tally: &tally, emit: emit)
    }
}

/// Sums a day's minutes per device: a reading a day at noon, local time, marked a span total so that a later
/// export holding more of the same day replaces the figure rather than adding a second one beside it.
struct GadgetbridgeDaySums {
    private struct Key: Hashable {
        var source: String
        /// Days since 1970-01-01 on the local calendar.
        var day: Int64
    }

    private var sums: [Key: Double] = [:]

    /// Runs once a sample row (a million for a year of two devices): the day by the zone's offset (`DayNumbers`).
    mutating func add(_ value: Double, source: String, at ms: Int64, zone: TimeZone) {
        let seconds = ms / 1000
        let local = seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        sums[Key(source: source, day: DayNumbers.day(ofLocalSeconds: local)), default: 0] += value
    }

    func emit(_ kind: ReadingKind, zone: TimeZone, tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws {
        for (key, value) in sums.sorted(by: { ($0.key.day, $0.key.source) < ($1.key.day, $1.key.source) }) {
            guard let noon = DayNumbers.noon(of: key.day, in: zone) else { continue }
            guard kind.saneRange.contains(value) else {
                tally.skip(kind, UnitConversion.outOfRangeReason(kind))
                continue
            }
            tally.kept[kind, default: 0] += 1
            try emit(ImportedReading(kind: kind, source: key.source, timestamp: noon, value: value, isSpanTotal: true))
        }
    }
}
