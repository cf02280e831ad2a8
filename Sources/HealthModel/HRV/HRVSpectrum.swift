import Foundation
import CheckedNumbers

/// Frequency-domain HRV by Welch's method on the NN series resampled at 4 Hz (Task Force 1996 bands),
/// computed as hrv-analysis and SciPy compute it: linear resampling from the first beat, the mean taken
/// off, 256-sample periodic Hann segments overlapping by half, each segment's mean taken off and padded to
/// 4096 points, one-sided power spectral density in ms²/Hz averaged over segments, and each band's power
/// the trapezoid integral over the bins from its lower edge (inclusive) to its upper edge (exclusive).
public struct HRVSpectrum: Sendable, Equatable {
    public static let vlfBand = 0.0033..<0.04
    public static let lfBand = 0.04..<0.15
    public static let hfBand = 0.15..<0.4
    /// The frequency domain needs at least two minutes of beats (the Task Force's short-term minimum).
    public static let minimumSeconds = 120.0
    static let samplingHz = 4.0
    static let segmentLength = 256
    static let fftLength = 4096

    /// Band powers, ms².
    public let vlf: Double
    public let lf: Double
    public let hf: Double
    public var total: Double { vlf + lf + hf }
    public var lfOverHF: Double { lf / hf }

    /// Nil when the intervals last less than two minutes.
    public init?(nn: [Double]) {
        guard nn.count >= 3 else { return nil }
        var times = [0.0]
        for interval in nn.dropFirst() { times.append(times[times.count - 1] + interval / 1000) }
        guard let duration = times.last, duration + nn[0] / 1000 >= Self.minimumSeconds else { return nil }
        let samples = Self.resampled(times: times, values: nn, until: duration)
        let (frequencies, density) = Self.welch(samples)
        func power(_ band: Range<Double>) -> Double {
            let inBand = frequencies.indices.filter { band.contains(frequencies[$0]) }
            return zip(inBand, inBand.dropFirst()).reduce(0) { sum, pair in
                sum + (frequencies[pair.1] - frequencies[pair.0]) * (density[pair.0] + density[pair.1]) / 2
            }
        }
        vlf = power(Self.vlfBand)
        lf = power(Self.lfBand)
        hf = power(Self.hfBand)
    }

    /// The series at 0, 0.25, 0.5 … s up to (not including) `until`, linearly interpolated, mean removed.
    static func resampled(times: [Double], values: [Double], until end: Double) -> [Double] {
        let count = Int(rounding: end * samplingHz, .up)
        var out: [Double] = []
        out.reserveCapacity(count)
        var j = 0
        for k in 0..<count {
            let t = Double(k) / samplingHz
            while j + 2 < times.count, times[j + 1] < t { j += 1 }
            let fraction = (t - times[j]) / (times[j + 1] - times[j])
            out.append(values[j] + (values[j + 1] - values[j]) * fraction)
        }
        let mean = out.reduce(0, +) / Double(max(out.count, 1))
        return out.map { $0 - mean }
    }

    /// Welch's averaged periodogram, only up to the top of the HF band (all that is integrated).
    static func welch(_ x: [Double]) -> (frequencies: [Double], density: [Double]) {
        let n = min(segmentLength, x.count)
        let step = n - n / 2
        let segments = (x.count - n) / step + 1
        let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let scale = 1 / (samplingHz * window.reduce(0) { $0 + $1 * $1 })
        let bins = Int(rounding: hfBand.upperBound * Double(fftLength) / samplingHz, .up) + 1
        let cosines = (0..<fftLength).map { cos(2 * Double.pi * Double($0) / Double(fftLength)) }
        let sines = (0..<fftLength).map { sin(2 * Double.pi * Double($0) / Double(fftLength)) }
        var density = [Double](repeating: 0, count: bins)
        for s in 0..<segments {
            let segment = x[(s * step)..<(s * step + n)]
            let mean = segment.reduce(0, +) / Double(n)
            let tapered = zip(segment, window).map { ($0 - mean) * $1 }
            for k in 0..<bins {
                var re = 0.0, im = 0.0
                for (j, value) in tapered.enumerated() {
                    let phase = (j * k) % fftLength
                    re += value * cosines[phase]
                    im -= value * sines[phase]
                }
                let oneSided = k == 0 || k == fftLength / 2 ? 1.0 : 2.0
                density[k] += oneSided * (re * re + im * im) * scale / Double(segments)
            }
        }
        let frequencies = (0..<bins).map { Double($0) * samplingHz / Double(fftLength) }
        return (frequencies, density)
    }
}
