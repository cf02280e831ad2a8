import Foundation
import CheckedNumbers

/// Where the trend stands against a goal weight.
public enum GoalProjection: Sendable, Equatable {
    /// Within `maintainingKg` of the goal.
    case maintaining
    /// Moving toward the goal; at the current rate the trend reaches it on `day`.
    case reaches(Day)
    /// Moving toward the goal, but more than `horizonDays` away at this rate: no date is promised.
    case beyondHorizon
    /// Flat, or moving away from the goal.
    case notApproaching

    public static let maintainingKg = 1.0
    /// Three years: a projection further out says more about the rate than about the date.
    public static let horizonDays = 3 * 365

    /// - Parameters:
    ///   - trendKg: the trend on `asOf`, the last day of the trend.
    ///   - weeklyKg: the weekly rate (`WeightRate.weeklyKg`); nil when unknown.
    public static func project(trendKg: Double, goalKg: Double, weeklyKg: Double?, asOf: Day) -> GoalProjection {
        let distance = goalKg - trendKg
        if abs(distance) <= maintainingKg { return .maintaining }
        guard let weeklyKg, weeklyKg != 0, (distance > 0) == (weeklyKg > 0) else { return .notApproaching }
        let days = (distance * 7 / weeklyKg).rounded()
        guard days <= Double(horizonDays) else { return .beyondHorizon }
        return .reaches(Day(ordinal: asOf.ordinal + Int(rounding: days)))
    }
}
