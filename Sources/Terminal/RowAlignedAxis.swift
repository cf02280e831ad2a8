import Foundation

/// A y-axis whose labels sit on rows of a text chart, each at its row's value: round, evenly spaced ticks
/// ("nice numbers": steps of 1, 2 or 5 × 10ⁿ, after Heckbert, "Nice numbers for graph labels", Graphics
/// Gems, 1990), as many intervals as divide the rows between the top and the bottom row evenly, so every
/// labelled row is the same number of rows from the next. The plot's range is the ticks' range widened by
/// half a row each way, so the top tick is the middle of the top row and the bottom tick the middle of the
/// bottom one, and a value falls in the row whose middle is nearest to it. Intervals the data does not
/// need are shared out below and above it.
public struct RowAlignedAxis: Sendable, Equatable {
    /// The tick values, lowest first; the first is the bottom row's value, the last the top row's.
    public var ticks: [Double]
    /// The step between ticks.
    public var step: Double
    /// What the plot's rows span: from half a row below the bottom tick to half a row above the top one.
    public var range: ClosedRange<Double>

    /// The finest nice step whose whole number of intervals covers `low…high` in `rows` rows, with that
    /// number of intervals dividing `rows - 1`; nil for fewer than two rows or a range that is not finite.
    public init?(low: Double, high: Double, rows: Int) {
        guard rows >= 2, low.isFinite, high.isFinite, low <= high else { return nil }
        var low = low, high = high
        if high - low < 1e-9 { low -= 0.5; high += 0.5 }   // a flat line sits in the middle, not on an edge
        let divisors = (1...(rows - 1)).filter { (rows - 1) % $0 == 0 }
        let span = high - low
        // A stored 1e300 leaves no room for a half-unit either side (1e300 + 0.5 is 1e300): no axis, rather
        // than a search that never ends.
        guard span > 0, span.isFinite else { return nil }
        var exponent = floor(log10(span / Double(rows - 1)))
        // The finest step is at least span / (rows - 1); the coarsest any row count needs, a few powers of ten more.
        let last = exponent + 3
        while exponent <= last {
            let magnitude = pow(10, exponent)
            for multiple in [1.0, 2, 5] {
                let step = multiple * magnitude
                var bottom = floor(low / step + 1e-9) * step
                // The fewest intervals that reach `high`, among those that divide the rows evenly.
                guard let intervals = divisors.first(where: { bottom + Double($0) * step >= high - 1e-9 }) else { continue }
                // Intervals the data does not need are shared out below and above it, so it sits in the
                // middle; never below zero for data that is not.
                let needed = Int(ceil((high - bottom) / step - 1e-9))
                let middle = (low + high) / 2, height = Double(intervals) * step
                let below = (0...(intervals - needed)).map(Double.init).filter { low < 0 || bottom - $0 * step >= 0 }
                    .min { abs(bottom - $0 * step + height / 2 - middle) < abs(bottom - $1 * step + height / 2 - middle) } ?? 0
                bottom -= below * step
                // Ticks closer than a row apart cannot be labelled; the divisors keep that: at most rows - 1.
                let top = bottom + Double(intervals) * step
                let half = (top - bottom) / Double(rows - 1) / 2
                ticks = (0...intervals).map { bottom + Double($0) * step }
                self.step = step
                range = (bottom - half)...(top + half)
                return
            }
            exponent += 1
        }
        return nil
    }

    /// Decimals the labels need to tell the ticks apart: none for whole steps, else as many as the step has.
    public var decimals: Int { step >= 1 ? 0 : Int(ceil(-log10(step) - 1e-9)) }
}
