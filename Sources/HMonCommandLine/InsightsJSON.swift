import Foundation
import HealthCore
import HealthModel

/// `hmon insights --json`: `{"averages": […], "correlations": […], "expected_correlations": […],
/// "insights": […]}`, each object in the shape Exist's API v2 gives it (`/work/shared/design/exist-api.md`),
/// attribute names as Exist's templates, values in Exist's units (energy in kJ, body fat 0–1) as Exist
/// shows them. `expected_correlations` are the pairs that measure one thing twice (hmon's own key).
public enum InsightsJSON {
    public static func data(_ report: InsightsReport, now: Date) throws -> Data {
        let document: [String: Any] = [
            "averages": report.averages.map(ExistObjects.average),
            "correlations": report.correlations.map(ExistObjects.correlation),
            "expected_correlations": report.expectedCorrelations.map(ExistObjects.correlation),
            "insights": report.findings.map { ExistObjects.insight($0, now: now) },
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }
}
