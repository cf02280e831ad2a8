import Foundation
import HealthCore
import HealthModel

/// A Fitbit export's weigh-ins: `weight-YYYY-MM-DD.json` (`[{logId, weight, bmi, fat?, date "MM/dd/yy",
/// time "HH:mm:ss", source}]`, weights in the account's unit) and `fat-YYYY-MM-DD.json` (`[{logId, date, time,
/// fat, source}]`, body fat in %). A scale writes both with the same `logId`: the fat goes beside its weight,
/// as every scale's does in hmon; a fat log without a weight (typed in alone) is kept as body fat on its own.
/// `bmi` is left out: hmon works it out from the weight and the profile's height.
enum FitbitWeightLogs {
    /// Body fat by `logId`, from every fat file: one small entry a weigh-in, so a lifetime fits in memory.
    static func fatLogs(_ files: [DownloadFile], zone: TimeZone, download: String) throws -> [String: FatLog] {
        var logs: [String: FatLog] = [:]
        for file in files {
            try JSONArrayRecords.read(file, download: download) { fields, path in
                let time = try timestamp(fields, at: path, zone: zone)
                guard let fat = fields["fat"]?.number else { return }
                let id = fields["logId"]?.text ?? "\(time)"
                logs[id] = FatLog(timestamp: time, percent: fat)
            }
        }
        return logs
    }

    struct FatLog: Equatable {
        var timestamp: Int64
        var percent: Double
    }

    /// Reads every weight file, emitting each weigh-in in kg with its fat beside it; the fat logs used are
    /// taken out of `fat`, so what is left there is fat logged alone.
    static func read(_ files: [DownloadFile], unit: MassUnit, fat: inout [String: FatLog], zone: TimeZone, download: String,
                     tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws {
        for file in files {
            var counts = tally
            var fatLeft = fat
            try withoutActuallyEscaping(emit) { emit in
                try JSONArrayRecords.read(file, download: download) { fields, path in
                    let time = try timestamp(fields, at: path, zone: zone)
                    let id = fields["logId"]?.text
                    let ownFat = id.flatMap { fatLeft.removeValue(forKey: $0)?.percent }
                    guard let raw = fields["weight"]?.number else {
                        counts.skip(.weight, "Fitbit weight log without a weight")
                        return
                    }
                    let kg = unit.toKg(raw)
                    guard ReadingKind.weight.saneRange.contains(kg) else {
                        counts.skip(.weight, UnitConversion.outOfRangeReason(.weight))
                        return
                    }
                    var extras: [String: Double] = [:]
                    if let percent = fields["fat"]?.number ?? ownFat, ReadingKind.bodyFat.saneRange.contains(percent) {
                        extras[ReadingKind.bodyFat.field] = percent
                    }
                    counts.kept[.weight, default: 0] += 1
                    try emit(ImportedReading(kind: .weight, source: FitbitTakeout.source, timestamp: time, value: kg, extras: extras))
                }
            }
            tally = counts
            fat = fatLeft
        }
    }

    /// Fat logged without a weigh-in, as body fat readings of their own.
    static func emitAlone(_ fat: [String: FatLog], tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws {
        for log in fat.values.sorted(by: { $0.timestamp < $1.timestamp }) {
            guard ReadingKind.bodyFat.saneRange.contains(log.percent) else {
                tally.skip(.bodyFat, UnitConversion.outOfRangeReason(.bodyFat))
                continue
            }
            tally.kept[.bodyFat, default: 0] += 1
            try emit(ImportedReading(kind: .bodyFat, source: FitbitTakeout.source, timestamp: log.timestamp, value: log.percent))
        }
    }

    /// A log's `date` and `time`, local in `zone`.
    private static func timestamp(_ fields: [String: JSONScalar], at path: JSONPath, zone: TimeZone) throws -> Int64 {
        func field(_ key: String) -> JSONPath { JSONPath(steps: path.steps + [.key(key)]) }
        guard case .string(let date)? = fields["date"] else {
            throw JSONProblem(path: field("date"), message: "is required, a string like \"03/14/26\"")
        }
        var time: String?
        if let value = fields["time"] {
            guard case .string(let text) = value else { throw JSONProblem(path: field("time"), message: "must be a string like \"06:40:00\"") }
            time = text
        }
        guard FitbitDates.timestamp(date, in: zone) != nil else {
            throw JSONProblem(path: field("date"), message: "\"\(date.prefix(20))\" is not a date like 03/14/26")
        }
        guard let stamp = FitbitDates.timestamp(date, time: time, in: zone) else {
            throw JSONProblem(path: field("time"), message: "\"\(time?.prefix(20) ?? "")\" is not a time like 06:40:00")
        }
        return stamp
    }
}
