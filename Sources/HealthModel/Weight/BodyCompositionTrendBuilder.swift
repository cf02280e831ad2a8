import Foundation

/// TrendWeight's body composition trend (Erv Walter's trendweight.com, `computeFatTrends` in
/// github.com/ervwalter/trendweight): each day with a body fat reading and a weigh-in is split into fat
/// mass = weight × fat share and lean mass = weight − fat mass, and the fat share, the fat mass and the
/// lean mass are each smoothed with the weight trend's own rule (`WeightTrendBuilder.smoothed`: 10 % a day
/// toward the day's value, seeded with the first, a day between two measurements moving toward the value
/// interpolated between them).
///
/// TrendWeight interpolates the weight and the fat share of a day between and multiplies them; hmon
/// interpolates each of the three figures, so every one follows the weight's single rule. The two differ
/// only by the product of the two changes: at most a quarter of Δweight × Δshare, 5 g midway across a
/// gap in which the weight moved 2 kg and the fat 1 point.
public enum BodyCompositionTrendBuilder {
    /// The trend from one measurement per day, in any order.
    public static func days(_ measurements: [(day: Day, weightKg: Double, fatPercent: Double)]) -> [BodyCompositionDay] {
        let measured = measurements.map { (day: $0.day, composition: BodyComposition(weightKg: $0.weightKg, fatPercent: $0.fatPercent)) }
        let fat = WeightTrendBuilder.smoothed(measured.map { ($0.day, $0.composition.fatPercent) })
        let fatMass = WeightTrendBuilder.smoothed(measured.map { ($0.day, $0.composition.fatMassKg) })
        let leanMass = WeightTrendBuilder.smoothed(measured.map { ($0.day, $0.composition.leanMassKg) })
        let byDay = Dictionary(measured, uniquingKeysWith: { first, _ in first })
        // The three series run over the same days, so they line up by position.
        return fat.indices.map { i in
            BodyCompositionDay(day: fat[i].day, measured: byDay[fat[i].day],
                               trend: BodyComposition(fatPercent: fat[i].trend, fatMassKg: fatMass[i].trend, leanMassKg: leanMass[i].trend))
        }
    }

    /// Pairs each day's body fat readings, averaged, with that day's weigh-ins averaged: the days that have
    /// both are the trend's measurements. A body fat reading on a day without a weigh-in gives no masses
    /// and is left out.
    public static func measurements(fatReadings: [(date: Date, percent: Double)], weighIns: [(day: Day, kg: Double)],
                                    calendar: Calendar) -> [(day: Day, weightKg: Double, fatPercent: Double)] {
        var fat: [Day: SumCount] = [:]
        for reading in fatReadings { fat[Day(reading.date, in: calendar), default: SumCount()].add(reading.percent) }
        return weighIns.compactMap { weighIn in
            fat[weighIn.day]?.mean.map { (weighIn.day, weighIn.kg, $0) }
        }
    }
}
