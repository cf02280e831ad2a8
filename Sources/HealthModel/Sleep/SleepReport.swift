import Foundation

/// What the Sleep screen, `hmon sleep` and the `sleep` view show for a span of days: each night's measures,
/// newest first, and the span's regularity, debt and consistency as `docs/methods.md` defines them.
public struct SleepReport: Codable, Sendable, Equatable {
    /// The last day of the span (today, or the day asked for).
    public var through: Day
    public var needMinutes: Double
    /// Newest first.
    public var nights: [SleepNightMeasures]
    /// The Sleep Regularity Index over the last 7 and 30 days; nil without a pair of days.
    public var regularity7: Double?
    public var regularity30: Double?
    /// Minutes of debt over the last 14 nights (`SleepDebt`).
    public var debtMinutes: Double
    /// The spread of bed and wake times over the last 30 days.
    public var consistency: SleepConsistency

    /// The days a report reads back from `through`: the 30 of the longest measure, and the 90 of its chart.
    public static let chartDays = 90

    /// From `nights` (one a day, `SleepNight.onePerDay`), for the span ending on `through`.
    public init(nights: [SleepNight], through: Day, needMinutes: Double = SleepDebt.defaultNeedMinutes, calendar: Calendar) {
        self.through = through
        self.needMinutes = needMinutes
        let kept = SleepNight.onePerDay(nights.filter { $0.day <= through })
        let measures = kept.map { SleepNightMeasures($0, calendar: calendar) }
        self.nights = measures.reversed()
        regularity7 = SleepRegularity.index(nights: kept, days: 7, endingOn: through, calendar: calendar)
        regularity30 = SleepRegularity.index(nights: kept, days: 30, endingOn: through, calendar: calendar)
        var asleep: [Day: Double] = [:]
        for night in measures { if let minutes = night.asleep { asleep[night.day] = minutes } }
        debtMinutes = SleepDebt.minutes(asleepByDay: asleep, endingOn: through, needMinutes: needMinutes)
        let first = through.adding(days: -29)
        consistency = SleepConsistency(measures.filter { $0.day >= first }, calendar: calendar)
    }
}
