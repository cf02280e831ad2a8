import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// The words `hmon import` prints: the progress line and the end-of-import summary.
/// Plain functions of the numbers, so they are tested without a terminal.
public enum ImportReportText {
    /// `export.xml  312.4 of 1024.0 MB (31%) · 245,120 readings · 410 MB/s · 2 s left`
    public static func progressLine(file: String, _ progress: ImportProgress, elapsed: TimeInterval) -> String {
        let done = Double(progress.bytesRead) / 1_000_000
        let total = Double(progress.totalBytes) / 1_000_000
        var parts = ["\(file)  \(String(format: "%.1f", done)) of \(String(format: "%.1f", total)) MB"]
        if progress.totalBytes > 0 {
            parts[0] += " (\(Int(rounding: Double(progress.bytesRead) / Double(progress.totalBytes) * 100, .towardZero))%)"
        }
        parts.append("\(grouped(progress.readingsKept)) readings")
        if elapsed > 0.2, progress.bytesRead > 0 {
            let rate = done / elapsed
            parts.append("\(Int(rounding: rate)) MB/s")
            let left = max(0, (total - done) / max(rate, 0.001))
            parts.append(left < 60 ? "\(Int(rounding: left, .up)) s left" : "\(Int(rounding: left / 60, .up)) min left")
        }
        return parts.joined(separator: " · ")
    }

    /// The summary, one line per fact; `dryRun` words it as what would happen.
    public static func summary(file: String, result: ImportResult, elapsed: TimeInterval, dryRun: Bool) -> [String] {
        let tally = result.tally
        var lines: [String] = []
        let verb = dryRun ? "would add" : "added"
        lines.append("\(file): \(result.format), read in \(String(format: "%.1f", elapsed)) s\(dryRun ? " (dry run: nothing was written)" : "")")
        let added = tally.addedTotal
        var addedLine = "\(verb) \(grouped(added)) \(added == 1 ? "reading" : "readings")"
        var addedKinds = ReadingKind.allCases.compactMap { kind in tally.added[kind].flatMap { $0 > 0 ? "\(grouped($0)) \(kind.label(count: $0))" : nil } }
        if tally.addedOther > 0 { addedKinds.append("\(grouped(tally.addedOther)) other readings") }
        if !addedKinds.isEmpty { addedLine += ": " + addedKinds.joined(separator: ", ") }
        lines.append(addedLine)
        if !tally.addedByDevice.isEmpty {
            let devices = tally.addedByDevice.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\($0.key) \(grouped($0.value))" }
            lines.append("by device: " + devices.joined(separator: ", "))
        }
        if tally.alreadyThereTotal > 0 {
            lines.append("already there: \(grouped(tally.alreadyThereTotal)) \(tally.alreadyThereTotal == 1 ? "reading" : "readings")")
        }
        if tally.skippedReasonsTotal > 0 {
            let reasons = tally.skippedReasons.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\(grouped($0.value)) \($0.key)" }
            lines.append("skipped \(grouped(tally.skippedReasonsTotal)): " + reasons.joined(separator: ", "))
        }
        if tally.skippedKindsTotal > 0 {
            let kinds = tally.skippedKinds.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            var shown = kinds.prefix(5).map { "\($0.key) \(grouped($0.value))" }
            if kinds.count > 5 { shown.append("and \(kinds.count - 5) more kinds") }
            lines.append("not kept: \(grouped(tally.skippedKindsTotal)) other records and elements (\(shown.joined(separator: ", ")))")
        }
        if !tally.tablesRead.isEmpty { lines.append("tables read: " + tableList(tally.tablesRead)) }
        if !tally.tablesNotRead.isEmpty { lines.append("tables not read: " + tableList(tally.tablesNotRead)) }
        if !tally.profileFilled.isEmpty {
            lines.append("profile: \(dryRun ? "would fill" : "filled") \(tally.profileFilled.joined(separator: ", "))")
        }
        if let cleaned = cleanedNamesLine(tally) { lines.append(cleaned) }
        return lines
    }

    /// "GARMIN_STRESS_SAMPLE (3 rows), USER (1 row)", by name: every table, however many.
    static func tableList(_ tables: [String: Int]) -> String {
        tables.sorted { $0.key < $1.key }.map { "\($0.key) (\(grouped($0.value)) \($0.value == 1 ? "row" : "rows"))" }
            .joined(separator: ", ")
    }

    /// The one line printed when stderr is not a terminal.
    public static func oneLine(file: String, result: ImportResult, dryRun: Bool) -> String {
        let tally = result.tally
        var text = "\(file): \(dryRun ? "would add" : "added") \(grouped(tally.addedTotal)), already there \(grouped(tally.alreadyThereTotal))"
        if tally.skippedReasonsTotal > 0 { text += ", skipped \(grouped(tally.skippedReasonsTotal))" }
        if let cleaned = cleanedNamesLine(tally) { text += "; " + cleaned }
        return text
    }

    /// "device names with control or invisible characters, shown as �: Evil�[2J Scale" (escaped when printed).
    static func cleanedNamesLine(_ tally: ImportTally) -> String? {
        guard !tally.cleanedDeviceNames.isEmpty else { return nil }
        return "device names with control or invisible characters, stored with \(TextRules.replacement) in their place: "
            + tally.cleanedDeviceNames.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// `1234567` → `1,234,567`.
    public static func grouped(_ n: Int) -> String { Formatting.grouped(n) }
}

/// `hmon import --json`: the same facts as the summary, for scripts. Keys are stable; counts are numbers.
public struct ImportReportJSON: Encodable, Sendable {
    public struct Counts: Encodable, Sendable {
        public var total: Int
        /// By kind, under `ReadingKind`'s raw names ("weight", "activeEnergy"); "other" for an hmon
        /// export's readings of no such kind.
        public var byKind: [String: Int]
    }

    public var file: String
    public var format: String
    public var dryRun: Bool
    public var added: Counts
    /// Readings added per device, by the device's name.
    public var addedByDevice: [String: Int]
    public var alreadyThere: Counts
    /// Readings skipped, by reason.
    public var skipped: [String: Int]
    /// Records and elements of kinds hmon does not keep, by kind.
    public var notKept: [String: Int]
    public var profileFilled: [String]
    public var cleanedDeviceNames: [String]
    /// Of a database (Gadgetbridge's), the tables read and the other tables holding rows, with their rows;
    /// left out for the other formats, whose objects stay as they were.
    public var tablesRead: [String: Int]?
    public var tablesNotRead: [String: Int]?

    public init(file: String, result: ImportResult, dryRun: Bool) {
        let tally = result.tally
        func counts(_ byKind: [ReadingKind: Int], other: Int) -> Counts {
            var named = Dictionary(uniqueKeysWithValues: byKind.filter { $0.value > 0 }.map { ($0.key.rawValue, $0.value) })
            if other > 0 { named["other"] = other }
            return Counts(total: named.values.reduce(0, +), byKind: named)
        }
        self.file = file
        format = result.format.rawValue
        self.dryRun = dryRun
        added = counts(tally.added, other: tally.addedOther)
        addedByDevice = tally.addedByDevice
        alreadyThere = counts(tally.alreadyThere, other: tally.alreadyThereOther)
        skipped = tally.skippedReasons
        notKept = tally.skippedKinds
        profileFilled = tally.profileFilled
        cleanedDeviceNames = tally.cleanedDeviceNames
        tablesRead = result.format == .gadgetbridge ? tally.tablesRead : nil
        tablesNotRead = result.format == .gadgetbridge ? tally.tablesNotRead : nil
    }

    /// One line of JSON, keys sorted. Every scalar `TextRules` refuses in a name (control, bidi,
    /// zero-width) is written as a `\uXXXX` escape: still the same JSON, and safe on a terminal.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
        var out = ""
        for scalar in json.unicodeScalars {
            if TextRules.isUnsafe(scalar), scalar.value <= 0xFFFF {
                out += String(format: "\\u%04X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
