import Foundation

/// The false discovery rate control of Benjamini & Hochberg (1995, *J. R. Stat. Soc. B* 57:289–300).
///
/// Testing a hundred pairs at p < 0.05 finds about five "relations" in pure noise. BH's adjusted value
/// (`q`) of the k-th smallest of m p-values is `min over j ≥ k of p₍ⱼ₎·m/j`, capped at 1; keeping those
/// with q ≤ α keeps the expected share of false findings among the kept ones at most α. The same
/// adjustment as R's `p.adjust(method = "BH")` and SciPy's `stats.false_discovery_control`.
public enum BenjaminiHochberg {
    /// The adjusted values, in the order of `pValues`.
    public static func adjusted(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        guard m > 0 else { return [] }
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var result = [Double](repeating: 1, count: m)
        var running = 1.0
        for rank in stride(from: m, through: 1, by: -1) {
            let index = order[rank - 1]
            running = min(running, pValues[index] * Double(m) / Double(rank))
            result[index] = min(1, running)
        }
        return result
    }
}
