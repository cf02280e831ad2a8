import Foundation

/// One value per attribute per local day, over a run of days: what averages, correlations and findings
/// are computed from. Pure: the store (or a test) sums each day's readings into `DayTotals` first.
public struct DailyAttributes: Sendable, Equatable {
    /// The first and last day held.
    public let days: ClosedRange<Day>
    /// Per attribute, one entry per day from `days.lowerBound`; NaN where the day has no value.
    public let values: [InsightAttribute: [Double]]
    /// The weight of weigh-in days only (NaN on carried days): day-to-day changes are taken between
    /// real weigh-ins, so a gap's change does not land on one day.
    let weighedKg: [Double]

    /// How each attribute's day is made:
    /// - `weight`: the day's average weigh-in, carried forward up to 30 days (`WeightSeriesBuilder`);
    ///   `weigh_ins` the day's count, 0 from the first weigh-in on; `body_fat`, `lean_mass` the day's average.
    /// - `active_energy`, `energy` (eaten), `steps`: the day's sum, absent on a day with no reading
    ///   (a day without a food log is unknown, not a fast).
    /// - `resting_energy`: recorded basal energy, else the profile's BMR for the day's weight
    ///   (`EnergyCalculator`); `net_energy` = eaten − active − resting on days with food logged.
    /// - `sleep_efficiency`, `sleep_midpoint`, `sleep_regularity`: the night's, as the Sleep screen measures it
    ///   (`NightFigures`), on the day it ends.
    /// - `heartrate_resting`, `welltory_stress` and the vital signs (`blood_pressure_systolic`, `oxygen_saturation`,
    ///   `respiratory_rate`, `skin_temperature_change`): the day's average; `heartrate_variability` the day's average
    ///   RMSSD, or SDNN when the window has no RMSSD at all (the two are not mixed in one series).
    /// - Parameter totals: per day; include the 30 days before `days` so the weight carry starts right.
    /// - Parameter nights: each night's figures (`NightFigures.of`) for `sleep_efficiency`, `sleep_midpoint` and
    ///   `sleep_regularity`, as the Sleep screen measures them.
    public static func build(totals: [Day: DayTotals], nights: [NightFigures] = [], days: ClosedRange<Day>, profile: Profile,
                             calendar: Calendar) -> DailyAttributes {
        let first = days.lowerBound.ordinal
        let count = days.upperBound.ordinal - first + 1
        var values: [InsightAttribute: [Double]] = [:]
        for attribute in InsightAttribute.allCases { values[attribute] = [Double](repeating: .nan, count: count) }
        var weighed = [Double](repeating: .nan, count: count)

        let weightTotals = totals.compactMapValues { t in
            t[.weight].count > 0 ? DailyWeightTotal(kg: t[.weight].sum, readings: t[.weight].count) : nil
        }
        var weights = [Double](repeating: .nan, count: count)
        for point in WeightSeriesBuilder.series(dailyTotals: weightTotals, days: days).points {
            weights[point.day.ordinal - first] = point.kg
        }
        values[.weight] = weights
        let firstWeighIn = weightTotals.keys.min()
        let useRMSSD = totals.contains { days.contains($0.key) && $0.value[.heartRateVariabilityFromBeats].count > 0 }

        for i in 0..<count {
            let day = Day(ordinal: first + i)
            let t = totals[day] ?? DayTotals()
            func set(_ attribute: InsightAttribute, _ value: Double?) {
                if let value { values[attribute]![i] = value }
            }
            let weighIns = t[.weight]
            if weighIns.count > 0 { weighed[i] = weighIns.sum / Double(weighIns.count) }
            if let firstWeighIn, day >= firstWeighIn { set(.weighIns, Double(weighIns.count)) }
            for kind in ReadingKind.daySlots {
                guard let attribute = kind.insight, !Self.madeApart.contains(attribute) else { continue }
                set(attribute, kind.day == .sum ? t[kind].total : t[kind].mean)
            }
            let hrv = useRMSSD ? t[.heartRateVariabilityFromBeats] : t[.heartRateVariability]
            set(.heartRateVariability, hrv.mean)

            let weight = weights[i].isNaN ? nil : weights[i]
            let consumed = t[.dietaryEnergy], active = t[.activeEnergy]
            let energy = EnergyTotals(active: active.sum, consumed: consumed.sum, recordedBasal: t[.basalEnergy].total)
            // A past day counts whole: the window ends before today.
            let summary = EnergyCalculator.summary(day: day, profile: profile, weightKg: weight, totals: energy,
                                                   now: .distantFuture, calendar: calendar)
            set(.restingEnergy, summary.resting)
            if consumed.count > 0, let resting = summary.resting {
                set(.netEnergy, consumed.sum - active.sum - resting)
            }
        }
        for night in nights where days.contains(night.day) {
            let i = night.day.ordinal - first
            for (attribute, value) in [(InsightAttribute.sleepEfficiency, night.efficiency), (.sleepMidpoint, night.midpointFromNoon),
                                       (.sleepRegularity, night.regularity)] {
                if let value { values[attribute]![i] = value }
            }
        }
        return DailyAttributes(days: days, values: values, weighedKg: weighed)
    }

    /// The attributes made above from more than their kind's day: weight carried over gaps, HRV from one
    /// of two kinds. Every other kind's attribute is its day's sum or mean (`ReadingKind.day`).
    private static let madeApart: Set<InsightAttribute> = [.weight, .heartRateVariability]

    /// The attribute's value on `day`, nil when it has none (or the day is outside).
    public func value(_ attribute: InsightAttribute, on day: Day) -> Double? {
        guard days.contains(day), let v = values[attribute]?[day.ordinal - days.lowerBound.ordinal], !v.isNaN else { return nil }
        return v
    }

    /// The series correlations use: levels, or for a trended attribute the change from the day before
    /// (NaN unless both days have their own value; for weight, a weigh-in on both).
    public func correlated(_ attribute: InsightAttribute) -> [Double] {
        guard attribute.isTrended else { return values[attribute] ?? [] }
        let levels = attribute == .weight ? weighedKg : values[attribute] ?? []
        guard !levels.isEmpty else { return [] }
        var changes = [Double](repeating: .nan, count: levels.count)
        for i in 1..<max(1, levels.count) { changes[i] = levels[i] - levels[i - 1] }
        return changes
    }

    /// Whether the attribute has any value at all.
    public func hasValues(_ attribute: InsightAttribute) -> Bool {
        values[attribute]?.contains { !$0.isNaN } ?? false
    }
}

extension Day {
    /// Monday 0 … Sunday 6 (1970-01-01, ordinal 0, was a Thursday).
    public var weekdayIndex: Int { ((ordinal + 3) % 7 + 7) % 7 }
}
