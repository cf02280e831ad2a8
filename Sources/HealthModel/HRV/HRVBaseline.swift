import Foundation

/// A measurement's colour when Welltory gave none: HRV4Training's method. Each RMSSD is taken as its
/// natural log (ln RMSSD is close to normally distributed, RMSSD itself is skewed), and compared with the
/// person's own normal range: the mean of ln RMSSD over the 60 days before it, ± half a standard deviation
/// (the smallest worthwhile change of Plews et al., 2012). Above the range is green (recovered), inside it
/// yellow (normal), below it red (strained). Under 14 earlier measurements there is no range yet.
public enum HRVBaseline {
    public static let windowDays = 60
    public static let minimumMeasurements = 14
    public static let bandSDs = 0.5

    /// The normal range of ln RMSSD, and the same in ms for charts.
    public struct Band: Sendable, Equatable {
        public let meanLn: Double
        public let lowLn: Double
        public let highLn: Double
        public let count: Int
        public var lowMs: Double { exp(lowLn) }
        public var highMs: Double { exp(highLn) }
    }

    public enum Verdict: Sendable, Equatable {
        /// Not enough earlier measurements: `have` of `need`.
        case building(have: Int, need: Int)
        case rated(HRVColor, Band)
    }

    /// The range from the measurements in the `windowDays` before `instant` (not including it).
    public static func band(before instant: Date, history: [(date: Date, rmssdMs: Double)]) -> Band? {
        let start = instant.addingTimeInterval(-Double(windowDays) * 86_400)
        let logs = history.filter { $0.date >= start && $0.date < instant && $0.rmssdMs > 0 }.map { log($0.rmssdMs) }
        guard logs.count >= minimumMeasurements else { return nil }
        let mean = logs.reduce(0, +) / Double(logs.count)
        let sd = (logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(logs.count - 1)).squareRoot()
        return Band(meanLn: mean, lowLn: mean - bandSDs * sd, highLn: mean + bandSDs * sd, count: logs.count)
    }

    /// The colour of an RMSSD measured at `instant`, against the measurements before it.
    public static func verdict(rmssdMs: Double, at instant: Date, history: [(date: Date, rmssdMs: Double)]) -> Verdict {
        guard let band = band(before: instant, history: history) else {
            let start = instant.addingTimeInterval(-Double(windowDays) * 86_400)
            let have = history.count(where: { $0.date >= start && $0.date < instant && $0.rmssdMs > 0 })
            return .building(have: have, need: minimumMeasurements)
        }
        let value = log(max(rmssdMs, .leastNonzeroMagnitude))
        let color: HRVColor = value > band.highLn ? .green : value < band.lowLn ? .red : .yellow
        return .rated(color, band)
    }
}

extension HRVBaseline {
    /// The colours of many measurements at once, each against the measurements before it: the same answer as
    /// `verdict(rmssdMs:at:history:)` for each, in one pass over `history` sorted by time (a sliding 60-day
    /// window with running sums of ln RMSSD and its square), so a table of n rows costs n log n, not n².
    public static func verdicts(of measurements: [(rmssdMs: Double, at: Date)],
                                history: [(date: Date, rmssdMs: Double)]) -> [Verdict] {
        let logs = history.filter { $0.rmssdMs > 0 }.map { (date: $0.date, ln: log($0.rmssdMs)) }.sorted { $0.date < $1.date }
        let order = measurements.indices.sorted { measurements[$0].at < measurements[$1].at }
        var verdicts = [Verdict](repeating: .building(have: 0, need: minimumMeasurements), count: measurements.count)
        var low = 0, high = 0
        var sum = 0.0, sumOfSquares = 0.0
        for index in order {
            let instant = measurements[index].at
            let start = instant.addingTimeInterval(-Double(windowDays) * 86_400)
            while high < logs.count && logs[high].date < instant {
                sum += logs[high].ln
                sumOfSquares += logs[high].ln * logs[high].ln
                high += 1
            }
            while low < high && logs[low].date < start {
                sum -= logs[low].ln
                sumOfSquares -= logs[low].ln * logs[low].ln
                low += 1
            }
            let count = high - low
            guard count >= minimumMeasurements else {
                verdicts[index] = .building(have: count, need: minimumMeasurements)
                continue
            }
            let mean = sum / Double(count)
            let sd = (max(0, sumOfSquares - Double(count) * mean * mean) / Double(count - 1)).squareRoot()
            let band = Band(meanLn: mean, lowLn: mean - bandSDs * sd, highLn: mean + bandSDs * sd, count: count)
            let value = log(max(measurements[index].rmssdMs, .leastNonzeroMagnitude))
            verdicts[index] = .rated(value > band.highLn ? .green : value < band.lowLn ? .red : .yellow, band)
        }
        return verdicts
    }
}

/// Welltory's colour words: green good, yellow normal, red bad, unknown.
public enum HRVColor: String, Sendable, CaseIterable {
    case green, yellow, red, unknown

    /// The word monochrome shows, and the one people read.
    public var word: String {
        switch self {
        case .green: "Good"
        case .yellow: "Normal"
        case .red: "Bad"
        case .unknown: "Unknown"
        }
    }
}
