import Foundation
import HealthCore
import HealthModel

/// A Samsung Health download's nights: the stages of `com.samsung.health.sleep_stage.*.csv` (`start_time`,
/// `end_time`, `stage`, `sleep_id`; Samsung's codes 40001 awake, 40002 light, 40003 deep, 40004 REM), and for a
/// session of `com.samsung.shealth.sleep.*.csv` without stages (an older watch, a phone), its window as time
/// asleep without a stage. Times are UTC, as Samsung writes them; the nights then follow hmon's sleep rule
/// (`SleepNights`): a night belongs to the day it ends, and two devices' minutes count once.
enum SamsungHealthSleep {
    static let stageFilePrefix = "com.samsung.health.sleep_stage."
    static let sessionFilePrefix = "com.samsung.shealth.sleep."
    static let source = "Samsung Health"

    static func isStageFile(_ url: URL) -> Bool { matches(url, stageFilePrefix) }
    static func isSamsungSleepFile(_ file: DownloadFile) -> Bool {
        let url = URL(fileURLWithPath: file.path)
        return !file.isMacMetadata && (isStageFile(url) || isSessionFile(url))
    }
    static func isSessionFile(_ url: URL) -> Bool { matches(url, sessionFilePrefix) }

    private static func matches(_ url: URL, _ prefix: String) -> Bool {
        url.lastPathComponent.hasPrefix(prefix) && url.lastPathComponent.hasSuffix(".csv")
    }

    /// The nights of a download's newest stage and session files (either may be missing).
    static func nights(stages stageText: Data?, sessions sessionText: Data?, name: String) throws -> SleepNights {
        var nights = SleepNights()
        var staged: Set<String> = []
        for row in try rows(of: stageText, name: name) {
            guard let stage = row.stage, let start = row.start, let end = row.end, end > start else { continue }
            nights.add(SleepSample(stage: stage, startMs: start, endMs: end, source: source))
            if let id = row.sleepID { staged.insert(id) }
        }
        for row in try rows(of: sessionText, name: name) {
            guard let start = row.start, let end = row.end, end > start else { continue }
            if let id = row.id, staged.contains(id) { continue }
            nights.add(SleepSample(stage: .unspecified, startMs: start, endMs: end, source: source))
        }
        return nights
    }

    private struct Row {
        var start: Int64?
        var end: Int64?
        var stage: SleepStage?
        var sleepID: String?
        var id: String?
    }

    /// The rows under a Samsung file's data-type line and header, by column name without the type's prefix.
    private static func rows(of data: Data?, name: String) throws -> [Row] {
        guard let data else { return [] }
        var header: [String]?
        var rows: [Row] = []
        var reader = CSVReader(delimiter: UInt8(ascii: ","))
        let utc = TimeZone(identifier: "UTC")!
        func onRow(_ cells: [String], _ line: Int) throws {
            guard let columns = header else {
                if line == 1, cells.first?.hasPrefix("com.samsung.") == true { return }
                header = cells.map { $0.split(separator: ".").last.map(String.init)?.lowercased() ?? "" }
                return
            }
            func cell(_ name: String) -> String? {
                guard let index = columns.firstIndex(of: name), index < cells.count else { return nil }
                let text = cells[index].trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            func time(_ name: String) -> Int64? { cell(name).flatMap { CSVDates.timestamp(date: $0, time: nil, in: utc) } }
            rows.append(Row(start: time("start_time"), end: time("end_time"), stage: cell("stage").flatMap(stage(code:)),
                            sleepID: cell("sleep_id"), id: cell("datauuid")))
        }
        do {
            try data.withUnsafeBytes { bytes in try reader.feed(bytes, onRow) }
            try reader.finish(onRow)
        } catch let problem as ImportLineProblem {
            throw ImportError(file: name, line: problem.line, problem: problem.message)
        }
        return rows
    }

    /// Samsung Health's sleep stage codes.
    static func stage(code: String) -> SleepStage? {
        switch code {
        case "40001": .awake
        case "40002": .core
        case "40003": .deep
        case "40004": .rem
        default: nil
        }
    }
}
