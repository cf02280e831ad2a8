import Foundation
import HealthCore
import HealthModel

/// A Fitbit export's nightly HRV: `Daily Heart Rate Variability Summary - YYYY-MM(-DD).csv`
/// (`timestamp,rmssd,nremhr,entropy`, the timestamp local, like `2026-03-14T00:00:00`). The RMSSD is kept,
/// as the night's HRV under hmon's RMSSD (as Health Connect's is); `nremhr` (heart rate in non-REM sleep)
/// and `entropy` have no kind in hmon and are left out.
enum FitbitHRVSummary {
    static let namePrefix = "Daily Heart Rate Variability Summary - "

    static func read(_ file: DownloadFile, zone: TimeZone, download: String, tally: inout ImportTally,
                     emit: (ImportedReading) throws -> Void) throws {
        var reader = CSVReader(delimiter: UInt8(ascii: ","))
        var columns: (timestamp: Int, rmssd: Int)?
        var counts = tally
        let kind = ReadingKind.heartRateVariabilityFromBeats
        try withoutActuallyEscaping(emit) { emit in
            func onRow(_ row: [String], _ line: Int) throws {
                guard let found = columns else {
                    let header = row.map { $0.trimmingSpaces.lowercased() }
                    guard let timestamp = header.firstIndex(of: "timestamp"), let rmssd = header.firstIndex(of: "rmssd") else {
                        throw ImportLineProblem(line: line, message: "expected a header naming timestamp and rmssd, as Fitbit writes it")
                    }
                    columns = (timestamp, rmssd)
                    return
                }
                let text = found.timestamp < row.count ? row[found.timestamp].trimmingSpaces : ""
                guard let time = CSVDates.timestamp(date: text, time: nil, in: zone) else {
                    throw ImportLineProblem(line: line, message: "bad timestamp \"\(text.prefix(40))\" (expected like 2026-03-14T00:00:00)")
                }
                let cell = found.rmssd < row.count ? row[found.rmssd].trimmingSpaces : ""
                guard !cell.isEmpty else {
                    counts.skip(kind, "Fitbit HRV summary row without an rmssd")
                    return
                }
                guard let rmssd = Array(cell.utf8).withUnsafeBufferPointer(ByteParsing.double) else {
                    throw ImportLineProblem(line: line, message: "bad number \"\(cell.prefix(40))\" in column \"rmssd\"")
                }
                guard kind.saneRange.contains(rmssd) else {
                    counts.skip(kind, UnitConversion.outOfRangeReason(kind))
                    return
                }
                counts.kept[kind, default: 0] += 1
                try emit(ImportedReading(kind: kind, source: FitbitTakeout.source, timestamp: time, value: rmssd,
                                         texts: [Field.source: HRVSource.watch.rawValue]))
            }
            do {
                try file.read { try reader.feed($0, onRow) }
                try reader.finish(onRow)
            } catch let problem as ImportLineProblem {
                throw ImportError(file: "\(download)/\(file.path)", line: problem.line, problem: problem.message)
            }
        }
        tally = counts
    }
}
