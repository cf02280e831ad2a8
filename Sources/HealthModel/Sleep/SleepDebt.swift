import Foundation

/// Sleep need and debt: how far the last fourteen nights fell short of the person's need, recent nights
/// weighing more. The night k nights before the last (k = 0 for the last) weighs (14 − k) / 14: last night
/// 1, the night before 13/14, … the fourteenth 1/14. A night longer than the need repays nothing, and a
/// night with no record adds nothing (a watch left off is not a night awake).
public enum SleepDebt {
    /// The need when the profile names none, minutes (the American Academy of Sleep Medicine's and the Sleep
    /// Research Society's adult consensus is 7 hours or more; 8 h is the usual figure apps start from).
    public static let defaultNeedMinutes = 480.0
    /// Nights counted.
    public static let nights = 14

    /// The weight of the night `k` nights before the last.
    public static func weight(nightsBefore k: Int) -> Double {
        guard (0..<nights).contains(k) else { return 0 }
        return Double(nights - k) / Double(nights)
    }

    /// Minutes of debt on `last`, from each day's minutes asleep (`asleepByDay`) and the need.
    public static func minutes(asleepByDay: [Day: Double], endingOn last: Day, needMinutes: Double) -> Double {
        (0..<nights).reduce(0) { debt, k in
            guard let asleep = asleepByDay[last.adding(days: -k)] else { return debt }
            return debt + weight(nightsBefore: k) * max(0, needMinutes - asleep)
        }
    }
}
