import Foundation

/// The time-domain HRV figures of a series of normal-to-normal intervals (Task Force of the ESC and
/// NASPE, 1996), defined as hrv-analysis defines them so its figures can check these.
public struct HRVTimeDomain: Sendable, Equatable {
    public let meanRRMs: Double
    /// The mean of the instantaneous heart rates (60000 / NN), b/min.
    public let meanHeartRate: Double
    /// The sample standard deviation of the intervals (n − 1), ms.
    public let sdnnMs: Double
    /// The root mean square of successive differences, ms.
    public let rmssdMs: Double
    /// The share of successive differences above 50 ms, %.
    public let pnn50: Double

    /// Nil for fewer than three intervals: there is no spread to speak of.
    public init?(nn: [Double]) {
        guard nn.count >= 3 else { return nil }
        let n = Double(nn.count)
        let mean = nn.reduce(0, +) / n
        meanRRMs = mean
        meanHeartRate = nn.reduce(0) { $0 + 60_000 / $1 } / n
        sdnnMs = (nn.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)).squareRoot()
        let differences = zip(nn.dropFirst(), nn).map { $0 - $1 }
        rmssdMs = (differences.reduce(0) { $0 + $1 * $1 } / Double(differences.count)).squareRoot()
        pnn50 = 100 * Double(differences.count(where: { abs($0) > 50 })) / Double(differences.count)
    }
}
