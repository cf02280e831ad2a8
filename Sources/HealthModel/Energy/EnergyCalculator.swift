import Foundation

/// The sums of a day's energy readings, kcal.
public struct EnergyTotals: Sendable, Equatable {
    /// Sum of `activeEnergy`.
    public var active: Double
    /// Sum of `calories`.
    public var consumed: Double
    /// Sum of `basalEnergy`, nil when the day has no such reading (then the BMR is estimated).
    public var recordedBasal: Double?

    public init(active: Double, consumed: Double, recordedBasal: Double?) {
        self.active = active
        self.consumed = consumed
        self.recordedBasal = recordedBasal
    }

    /// Sums the energy fields of a day's readings.
    public init(readings: [[String: FieldValue]]) {
        var active = 0.0, consumed = 0.0, basal: Double?
        for data in readings {
            active += data[Field.activeEnergy]?.number ?? 0
            consumed += data[Field.calories]?.number ?? 0
            if let b = data[Field.basalEnergy]?.number { basal = (basal ?? 0) + b }
        }
        self.init(active: active, consumed: consumed, recordedBasal: basal)
    }
}

/// A day's energy balance from the profile, the weight and the day's readings. Pure: the clock and
/// the calendar come in as arguments.
public enum EnergyCalculator {
    /// - Parameters:
    ///   - weightKg: the latest weight on or before `day`, nil when none was ever recorded.
    ///   - now: the current instant; resting energy for today counts only the part of the day gone by.
    public static func summary(day: Day, profile: Profile, weightKg: Double?, totals: EnergyTotals,
                               now: Date, calendar: Calendar) -> EnergySummary {
        if let recorded = totals.recordedBasal {
            return EnergySummary(day: day, active: totals.active, consumed: totals.consumed, resting: recorded,
                                 restingSource: .recorded, missing: [], weightKg: weightKg)
        }
        let formula = profile.bmrFormula.usable(leanMassKg: profile.leanMassKg)
        var missing: [EnergySummary.Missing] = []
        if formula != .katchMcArdle {
            if profile.heightCm == nil { missing.append(.height) }
            if profile.birthDate == nil { missing.append(.birthDate) }
            if profile.sex == nil { missing.append(.sex) }
            if weightKg == nil { missing.append(.weight) }
        }
        var resting: Double?
        var source: EnergySummary.RestingSource?
        if missing.isEmpty {
            let bmr = formula.kcalPerDay(weightKg: weightKg ?? 0, heightCm: profile.heightCm ?? 0,
                                         ageYears: profile.birthDate.map { age(bornOn: $0, on: day) } ?? 0,
                                         sex: profile.sex ?? .female, leanMassKg: profile.leanMassKg)
            let fraction = fractionOfDay(day, now: now, calendar: calendar)
            resting = max(0, bmr) * fraction
            source = .estimated(formula, bmrPerDay: bmr, fractionOfDay: fraction)
        }
        return EnergySummary(day: day, active: totals.active, consumed: totals.consumed, resting: resting,
                             restingSource: source, missing: missing, weightKg: weightKg)
    }

    /// The same from the day's readings themselves.
    public static func summary(day: Day, profile: Profile, weightKg: Double?, readings: [[String: FieldValue]],
                               now: Date, calendar: Calendar) -> EnergySummary {
        summary(day: day, profile: profile, weightKg: weightKg, totals: EnergyTotals(readings: readings),
                now: now, calendar: calendar)
    }

    /// How much of `day` has gone by at `now`: 1 for a past day, 0 for a future one, and for today the
    /// share of the day's real length (23 or 25 hours on a daylight-saving change) up to `now`.
    public static func fractionOfDay(_ day: Day, now: Date, calendar: Calendar) -> Double {
        let start = day.start(in: calendar)
        let end = day.adding(days: 1).start(in: calendar)
        if now >= end { return 1 }
        if now <= start { return 0 }
        return now.timeIntervalSince(start) / end.timeIntervalSince(start)
    }

    /// Age in whole years on `day` (a birthday counts from its morning).
    public static func age(bornOn birth: Day, on day: Day) -> Int {
        var years = day.year - birth.year
        if (day.month, day.day) < (birth.month, birth.day) { years -= 1 }
        return max(0, years)
    }
}
