import Foundation

/// A night's figures that the insights take as daily attributes, each measured as the Sleep screen measures it
/// (`SleepNightMeasures`, `SleepRegularity`), on the day the night ends.
public struct NightFigures: Codable, Sendable, Equatable {
    public var day: Day
    /// Asleep over in bed, in per cent.
    public var efficiency: Double?
    /// The middle of the night's sleep (from falling asleep to the final waking), in minutes from the noon
    /// before it — as Exist writes a time that may fall either side of midnight (its value type 6): 03:15 is 915.
    public var midpointFromNoon: Double?
    /// The Sleep Regularity Index of this night against the night before (the two days' minutes compared);
    /// nil without a night the day before. The mean over seven days is the 7-day index.
    public var regularity: Double?

    public init(day: Day, efficiency: Double? = nil, midpointFromNoon: Double? = nil, regularity: Double? = nil) {
        self.day = day
        self.efficiency = efficiency
        self.midpointFromNoon = midpointFromNoon
        self.regularity = regularity
    }

    /// The figures of each of `nights` (one a day, `SleepNight.onePerDay`), clock times read in `calendar`.
    public static func of(_ nights: [SleepNight], calendar: Calendar) -> [NightFigures] {
        let byDay = Dictionary(nights.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        return nights.map { night in
            let measures = SleepNightMeasures(night, calendar: calendar)
            let noon = calendar.date(byAdding: .hour, value: 12, to: night.day.adding(days: -1).start(in: calendar))!
            let midpoint = measures.midpointMs.map { Double($0 - noon.millisecondsSince1970) / 60_000 }
            let pair = [byDay[night.day.adding(days: -1)], night].compactMap { $0 }
            return NightFigures(day: night.day, efficiency: measures.efficiency.map { 100 * $0 },
                                midpointFromNoon: midpoint.flatMap { (0..<1_440).contains($0) ? $0 : nil },
                                regularity: pair.count == 2
                                    ? SleepRegularity.index(nights: pair, days: 2, endingOn: night.day, calendar: calendar) : nil)
        }
    }
}
