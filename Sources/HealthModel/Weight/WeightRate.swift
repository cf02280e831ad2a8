import Foundation

/// How fast the trend moves, as TrendWeight computes it: the slope of a least-squares line through
/// the last 14 days of trend, in kg per week. The trend is already smoothed; the fit keeps one odd
/// day's step from setting the rate.
public enum WeightRate {
    public static let fitDays = 14
    /// Energy stored in a kilogram of body weight, the rule of thumb (≈ 3,500 kcal per pound, Wishnofsky 1958).
    public static let kcalPerKg = 7700.0
    /// The same rule per pound, as weight trackers that count in pounds use it.
    public static let kcalPerLb = 3500.0

    /// kg per week over the last `fitDays` days of `trend` (oldest first, one entry per day);
    /// nil with fewer than two days.
    public static func weeklyKg(_ trend: [TrendDay]) -> Double? {
        let window = trend.suffix(fitDays)
        guard let slope = slopePerDay(window.map { ($0.day.ordinal, $0.trendKg) }) else { return nil }
        return slope * 7
    }

    /// The least-squares slope of `y` against day `x`: Σ(x−x̄)(y−ȳ) / Σ(x−x̄)²; nil with fewer than two points.
    public static func slopePerDay(_ points: [(x: Int, y: Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let meanX = points.reduce(0.0) { $0 + Double($1.x) } / n
        let meanY = points.reduce(0.0) { $0 + $1.y } / n
        var covariance = 0.0, variance = 0.0
        for p in points {
            let dx = Double(p.x) - meanX
            covariance += dx * (p.y - meanY)
            variance += dx * dx
        }
        return variance > 0 ? covariance / variance : nil
    }

    /// The daily energy balance the weekly rate implies, kcal per day (negative: a deficit).
    /// In the unit the person reads: 7,700 kcal per kg, or 3,500 kcal per lb, so the figure matches
    /// what other trackers in that unit show.
    public static func dailyBalanceKcal(weeklyKg: Double, unit: MassUnit) -> Double {
        let perDay = unit.fromKg(weeklyKg) / 7
        return perDay * (unit == .kg ? kcalPerKg : kcalPerLb)
    }
}
