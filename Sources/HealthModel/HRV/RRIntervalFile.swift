import Foundation

/// A file of beat-to-beat intervals as chest straps and apps export them: one interval in ms per line,
/// blank lines skipped, one header line (e.g. "RR (ms)") allowed before the first number.
public enum RRIntervalFile {
    /// The intervals in ms; throws `.invalidValue` naming the first line that is not one.
    public static func intervals(in text: String) throws -> [Double] {
        var intervals: [Double] = []
        var sawHeader = false
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            guard let value = NumberText.decimal(line) else {
                if intervals.isEmpty, !sawHeader { sawHeader = true; continue }
                throw HealthError.invalidValue("line \(index + 1): \(WelltoryResult.shown(line)) is not an interval in ms")
            }
            guard value > 0 else {
                throw HealthError.invalidValue("line \(index + 1): \(formatted(value)) ms is not a positive interval")
            }
            intervals.append(value)
        }
        if intervals.isEmpty { throw HealthError.invalidValue("the file holds no intervals: one interval in ms per line") }
        // A file in seconds (0.85 for 850 ms) would pass every range check as nonsense: say so instead.
        if let longest = intervals.max(), longest < 10 {
            throw HealthError.invalidValue("the intervals look like seconds (longest \(formatted(longest))): pass them in ms")
        }
        return intervals
    }
}
