import Foundation

/// Energy expenditure learned from a person's own data, the way adaptive trackers (MacroFactor,
/// Libra's "TDEE") do it: what went in, minus what was stored. Over the last 28 days,
/// `expenditure = mean daily intake − (trend change × 7,700 kcal/kg) / days`.
/// Losing 0.05 kg of trend a day on 2,000 kcal means spending 2,000 + 0.05 × 7,700 = 2,385 kcal a day.
public enum LearnedExpenditure {
    public static let windowDays = 28
    /// Days of food logs, and days of weigh-ins, the window must hold before a figure is given.
    public static let minimumDays = 14

    public enum Estimate: Codable, Sendable, Equatable {
        /// kcal per day, learned from `foodDays` days of food logs and `weighInDays` days of weigh-ins.
        case learned(kcalPerDay: Double, foodDays: Int, weighInDays: Int)
        /// Not enough yet: the days that there are.
        case needsMoreData(foodDays: Int, weighInDays: Int)
    }

    /// - Parameters:
    ///   - trend: the weight trend, oldest first, one entry per day.
    ///   - intakeKcal: the energy eaten on each day with food logged (a day absent, or 0, was not logged).
    ///   - through: the last day of the window (today).
    public static func estimate(trend: [TrendDay], intakeKcal: [Day: Double], through: Day) -> Estimate {
        let end = through.ordinal
        let start = end - windowDays + 1
        let window = trend.filter { (start...end).contains($0.day.ordinal) }
        let weighInDays = window.filter { $0.weightKg != nil }.count
        let intakes = intakeKcal.filter { (start...end).contains($0.key.ordinal) && $0.value > 0 }.map(\.value)
        guard intakes.count >= minimumDays, weighInDays >= minimumDays,
              let first = window.first, let last = window.last, last.day.ordinal > first.day.ordinal else {
            return .needsMoreData(foodDays: intakes.count, weighInDays: weighInDays)
        }
        let meanIntake = intakes.reduce(0, +) / Double(intakes.count)
        let storedPerDay = (last.trendKg - first.trendKg) * WeightRate.kcalPerKg / Double(last.day.ordinal - first.day.ordinal)
        return .learned(kcalPerDay: meanIntake - storedPerDay, foodDays: intakes.count, weighInDays: weighInDays)
    }
}
