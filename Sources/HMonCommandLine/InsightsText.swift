import Foundation
import HealthCore
import HealthModel

/// What `hmon insights` prints: the findings, the weekday table of medians, and the correlations that
/// survived the false-discovery control, each as a sentence with its strength, stars and days.
public enum InsightsText {
    public static func lines(_ report: InsightsReport) -> [String] {
        var lines = ["Findings"]
        if report.findings.isEmpty { lines.append("  nothing stands out yet: findings need a few weeks of readings") }
        for finding in report.findings { lines.append("  \(finding.text)") }

        lines += ["", "Medians of the last \(AttributeAverages.windowDays) days (Exist's \"averages\")"]
        if report.averages.isEmpty {
            lines.append("  no readings in the last \(AttributeAverages.windowDays) days")
        } else {
            let header = pad("", 24) + pad("overall", 10) + ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { pad($0, 8) }.joined()
            lines.append("  " + header.trimmingTrailing())
            for a in report.averages {
                let row = pad(AverageCells.label(a.attribute, report.profile), 24) + pad(AverageCells.text(a.overall, a.attribute, report.profile), 10)
                    + a.weekdays.map { pad($0.map { AverageCells.text($0, a.attribute, report.profile) } ?? "–", 8) }.joined()
                lines.append("  " + row.trimmingTrailing())
            }
        }

        lines += ["", "Correlations (Spearman, \(report.testedPairs) pairs tested, false discovery rate 5 %)"]
        if report.correlations.isEmpty {
            lines.append(report.testedPairs == 0
                         ? "  none yet: a pair needs 30 days with both values"
                         : "  none survives the false-discovery control")
        }
        for c in report.correlations {
            lines.append("  \(String(repeating: "★", count: c.stars).padding(toLength: 5, withPad: " ", startingAt: 0)) \(c.fullSentence)")
        }
        if !report.expectedCorrelations.isEmpty {
            lines += ["", "As expected (the two measure one thing twice, so they are not findings)"]
            for c in report.expectedCorrelations { lines.append("  " + c.fullSentence) }
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension String {
    func trimmingTrailing() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
