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
            "correlations": report.correlations.map { rounded(ExistObjects.correlation($0)) },
            "expected_correlations": report.expectedCorrelations.map { rounded(ExistObjects.correlation($0)) },
            "insights": report.findings.map { ExistObjects.insight($0, now: now) },
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }

    /// A correlation's figures at the precision the screen and the text show them (ρ to 3 decimals, its
    /// percentage to 1, p and q to 3 significant digits), not a double's 17 digits. The server's Exist
    /// routes keep Exist's own full figures; this is the command line's JSON for scripts and people.
    static func rounded(_ correlation: [String: Any]) -> [String: Any] {
        var object = correlation
        func round(_ key: String, decimals: Int) {
            guard let value = object[key] as? Double, value.isFinite else { return }
            let scale = pow(10, Double(decimals))
            object[key] = (value * scale).rounded() / scale
        }
        func significant(_ key: String) {
            guard let value = object[key] as? Double, value.isFinite, value != 0 else { return }
            object[key] = Double(String(format: "%.3g", value)) ?? value
        }
        round("value", decimals: 3)
        round("percentage", decimals: 1)
        significant("p")
        significant("p_adjusted")
        return object
    }
}
