import Foundation
import CheckedNumbers

/// Baevsky's stress index (Baevsky & Chernikova, 2017): SI = AMo / (2 · Mo · MxDMn), where the intervals
/// are binned by 50 ms, Mo is the centre of the fullest bin in s, AMo that bin's share of intervals in %,
/// and MxDMn the range of the intervals in s. A rested heart scores about 50–150; stress raises it.
public enum BaevskyStressIndex {
    public static let binMs = 50.0

    /// Nil for fewer than three intervals or when they are all equal (no range to divide by).
    public static func of(nn: [Double]) -> Double? {
        guard nn.count >= 3, let low = nn.min(), let high = nn.max(), high > low else { return nil }
        var counts: [Int: Int] = [:]
        for interval in nn { counts[Int(rounding: interval / binMs, .down), default: 0] += 1 }
        // The fullest bin; on a tie the shorter intervals' bin, so the figure does not depend on hashing.
        guard let (bin, count) = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) else { return nil }
        let modeSeconds = (Double(bin) * binMs + binMs / 2) / 1000
        let amplitudePercent = 100 * Double(count) / Double(nn.count)
        return amplitudePercent / (2 * modeSeconds * (high - low) / 1000)
    }
}
