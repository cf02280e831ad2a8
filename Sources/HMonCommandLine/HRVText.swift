import Foundation
import HealthCore
import HealthModel

/// What `hmon add hrv` says about a measurement it stored, in one line.
public enum HRVText {
    /// "RMSSD 90.3 ms · SDNN 45.1 ms · power 100 ms² · stress 0.32 (good) · …", only the figures present.
    public static func summary(_ data: [String: FieldValue]) -> String {
        var parts: [String] = []
        func number(_ field: String, _ label: String, _ unit: String, decimals: Int) {
            guard let value = data[field]?.number else { return }
            parts.append("\(label) \(String(format: "%.\(decimals)f", value))\(unit)")
        }
        number(Field.rmssd, "RMSSD", " ms", decimals: 1)
        number(Field.sdnn, "SDNN", " ms", decimals: 1)
        number(Field.pnn50, "pNN50", " %", decimals: 1)
        number(Field.totalPower, "power", " ms²", decimals: 0)
        if let lf = data[Field.lfPower]?.number, let hf = data[Field.hfPower]?.number, hf > 0 {
            parts.append("LF/HF \(String(format: "%.2f", lf / hf))")
        }
        number(Field.heartRate, "heart rate", " b/min", decimals: 0)
        number(Field.stressIndex, "stress index", "", decimals: 0)
        for (field, colorField, label) in [(Field.stress, Field.stressColor, "stress"), (Field.energy, Field.energyColor, "energy"),
                                           (Field.productivity, Field.productivityColor, "productivity")] {
            guard let value = data[field]?.number else { continue }
            var part = "\(label) \(String(format: "%.2f", value))"
            if let color = data[colorField]?.textValue, let word = word(forColor: color) { part += " (\(word))" }
            parts.append(part)
        }
        return parts.joined(separator: " · ")
    }

    /// Welltory's colour as a word (what monochrome shows too): green good, yellow normal, red bad.
    public static func word(forColor color: String) -> String? {
        switch color {
        case "green": "good"
        case "yellow": "normal"
        case "red": "bad"
        default: nil
        }
    }

    /// "from 353 intervals, 7 removed by Malik's rule (artefacts and ectopic beats)".
    public static func cleaning(_ analysis: HRVAnalysis) -> String {
        let total = analysis.intervals.milliseconds.count
        let spectrum = analysis.spectrum == nil ? "; under 2 minutes, so no frequency-domain power" : ""
        return "from \(total) intervals, \(analysis.intervals.removed) replaced by Malik's rule (artefacts and ectopic beats)\(spectrum)"
    }
}

extension HRVText {
    /// What `hmon hrv link` prints: the link, where the results go, and that it replaces the last one.
    public static func link(user: String, request: String, server: String) -> String {
        """
        Open this link on the phone with Welltory; after measuring, Welltory sends the results to \
        hmon serve at \(server) for \(user):
        \(request)
        Keep it private: anyone with it can add measurements. It replaces any earlier link; \
        `hmon hrv link --revoke` stops it.
        """
    }

    /// What `hmon hrv link --revoke` prints.
    public static func revoked(user: String, hadLink: Bool) -> String {
        hadLink ? "revoked \(user)'s Welltory link: its results are refused from now on"
                : "\(user) has no Welltory link: nothing to revoke"
    }
}
