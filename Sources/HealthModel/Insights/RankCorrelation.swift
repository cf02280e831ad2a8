import Foundation

/// A correlation coefficient with its two-sided p-value and the number of pairs behind it.
public struct CorrelationResult: Sendable, Equatable {
    public var coefficient: Double
    public var p: Double
    public var count: Int

    public init(coefficient: Double, p: Double, count: Int) {
        self.coefficient = coefficient
        self.p = p
        self.count = count
    }
}

/// Spearman's rank correlation with the t-test p-value (what SciPy's `stats.spearmanr` computes).
///
/// Spearman rather than Pearson because daily health data has outliers that are real days, not errors
/// (a feast, a marathon, a watch left on the charger), and relations that are monotone but not straight
/// (steps and active energy): ranks give each day the same weight and measure "more goes with more"
/// whatever the shape. The p-value treats `r·√((n−2)/(1−r²))` as Student's t with n − 2 degrees of
/// freedom, the standard large-sample approximation (Zar 1972), fine from the 30 days we require.
public enum RankCorrelation {
    /// Spearman's rho of paired values (ties get their average rank); nil for fewer than 3 pairs or a
    /// constant series.
    public static func spearman(_ x: [Double], _ y: [Double]) -> CorrelationResult? {
        precondition(x.count == y.count, "paired series")
        guard x.count >= 3 else { return nil }
        return pearson(ranks(x), ranks(y))
    }

    /// Pearson's r with its t-test p-value; nil for fewer than 3 pairs or a constant series.
    public static func pearson(_ x: [Double], _ y: [Double]) -> CorrelationResult? {
        let n = x.count
        guard n >= 3, n == y.count else { return nil }
        let mx = x.reduce(0, +) / Double(n), my = y.reduce(0, +) / Double(n)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in 0..<n {
            let dx = x[i] - mx, dy = y[i] - my
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        guard sxx > 0, syy > 0 else { return nil }
        let r = max(-1, min(1, sxy / (sxx * syy).squareRoot()))
        let df = Double(n - 2)
        let p: Double
        if abs(r) >= 1 {
            p = 0
        } else {
            p = StudentT.twoSidedP(t: r * (df / ((1 + r) * (1 - r))).squareRoot(), degreesOfFreedom: df)
        }
        return CorrelationResult(coefficient: r, p: p, count: n)
    }

    /// Ranks from 1, ties sharing the average of the ranks they span.
    public static func ranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var result = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for k in start...end { result[order[k]] = rank }
            start = end + 1
        }
        return result
    }
}
