import Foundation
import HealthModel

/// What `hmon sleep` prints: the span's regularity, debt and consistency, then a line a night, newest first.
public enum SleepText {
    /// The report as lines, clock times in `calendar`'s zone.
    public static func lines(_ report: SleepReport, calendar: Calendar) -> [String] {
        var lines = [
            "Sleep to \(report.through) · need \(duration(report.needMinutes))",
            "Regularity (SRI): 7 days \(index(report.regularity7)) · 30 days \(index(report.regularity30))",
            "Debt (14 nights) \(duration(report.debtMinutes)) · bed time ± \(spread(report.consistency.bedMinutes))"
                + " · wake time ± \(spread(report.consistency.wakeMinutes))",
            "",
        ]
        guard !report.nights.isEmpty else { return lines + ["No nights in these days."] }
        let header = ["Date", "Bed", "Wake", "Asleep", "In bed", "Eff.", "Latency", "WASO", "Midpoint", "Deep", "REM", "Core", "Awake",
                      "Naps", "Source"]
        var rows = [header]
        for night in report.nights {
            func stage(_ kind: ReadingKind) -> String { night.stages[kind.field].map(duration) ?? "—" }
            rows.append([night.day.description, night.bedMs.map { clock($0, calendar) } ?? "—", clock(night.wakeMs, calendar),
                         night.asleep.map(duration) ?? "—", night.inBed.map(duration) ?? "—",
                         night.efficiency.map { "\(Int(($0 * 100).rounded())) %" } ?? "—",
                         night.latency.map { "\(Int($0.rounded())) min" } ?? "—",
                         night.wakeAfterSleepOnset.map { "\(Int($0.rounded())) min" } ?? "—",
                         night.midpointMs.map { clock($0, calendar) } ?? "—",
                         stage(.deepSleep), stage(.remSleep), stage(.coreSleep), stage(.sleepAwake),
                         night.naps.isEmpty ? "—" : duration(night.napMinutes), night.source])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max()! }
        for row in rows {
            lines.append(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces))
        }
        return lines
    }

    /// `7 h 20`: minutes as hours and minutes, as the HRV screen writes a night.
    public static func duration(_ minutes: Double) -> String {
        let whole = Int(minutes.rounded())
        return "\(whole / 60) h \(String(format: "%02d", whole % 60))"
    }

    /// `91.7`, or `—` without a pair of days.
    public static func index(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "—"
    }

    static func spread(_ minutes: Double?) -> String {
        minutes.map { "\(Int($0.rounded())) min" } ?? "—"
    }

    /// `23:05` in `calendar`'s zone.
    public static func clock(_ ms: Int64, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(ms) / 1000))
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// The report as `hmon sleep --json` prints it: the `sleep` view's `data`, keys sorted.
    public static func json(_ report: SleepReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(report)
    }
}
