import Foundation
import HealthCore
import HealthModel

/// `hmon trend --json`: `{"summary": {…}, "days": [{"date": "YYYY-MM-DD", "weight": kg or null, "trend": kg,
/// "fatPercent", "fatPercentTrend", "fatMassTrend", "leanMassTrend"}]}`, days oldest first (the body
/// composition keys null on a day outside its trend), every mass in kg and every energy in kcal whatever the
/// profile's units, so a script need not know them. Absent figures are `null`, not missing keys.
public enum TrendJSON {
    public static func data(_ input: TrendText.Input, days: [TrendDay], bodyComposition: [BodyCompositionDay] = []) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let composition = Dictionary(bodyComposition.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        return try encoder.encode(Document(summary: input.summary.map { Summary($0, input) },
                                           days: days.map { DayEntry($0, composition: composition[$0.day]) }))
    }

    struct Document: Encodable {
        var summary: Summary?
        var days: [DayEntry]

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(summary, forKey: .summary)
            try c.encode(days, forKey: .days)
        }

        enum CodingKeys: String, CodingKey { case summary, days }
    }

    struct DayEntry: Encodable {
        var date: String
        var weight: Double?
        var trend: Double
        var fatPercent: Double?
        var fatPercentTrend: Double?
        var fatMassTrend: Double?
        var leanMassTrend: Double?

        init(_ day: TrendDay, composition: BodyCompositionDay?) {
            date = day.day.description
            weight = day.weightKg.map { rounded($0, 2) }
            trend = rounded(day.trendKg, 2)
            fatPercent = composition?.measured.map { rounded($0.fatPercent, 2) }
            fatPercentTrend = composition.map { rounded($0.trend.fatPercent, 2) }
            fatMassTrend = composition.map { rounded($0.trend.fatMassKg, 2) }
            leanMassTrend = composition.map { rounded($0.trend.leanMassKg, 2) }
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(date, forKey: .date)
            try c.encode(weight, forKey: .weight)
            try c.encode(trend, forKey: .trend)
            try c.encode(fatPercent, forKey: .fatPercent)
            try c.encode(fatPercentTrend, forKey: .fatPercentTrend)
            try c.encode(fatMassTrend, forKey: .fatMassTrend)
            try c.encode(leanMassTrend, forKey: .leanMassTrend)
        }

        enum CodingKeys: String, CodingKey { case date, weight, trend, fatPercent, fatPercentTrend, fatMassTrend, leanMassTrend }
    }

    struct Summary: Encodable {
        var values: [(String, Double?)] = []
        var texts: [(String, String?)] = []

        init(_ s: TrendSummary, _ input: TrendText.Input) {
            values = [
                ("trendKg", rounded(s.trendKg, 2)),
                ("latestWeighInKg", rounded(s.latestWeighInKg, 2)),
                ("weeklyRateKg", s.weeklyKg.map { rounded($0, 3) }),
                ("dailyBalanceKcal", s.dailyBalanceKcal(unit: .kg).map { rounded($0, 0) }),
                ("change1WeekKg", s.change1WeekKg.map { rounded($0, 2) }),
                ("change2WeeksKg", s.change2WeeksKg.map { rounded($0, 2) }),
                ("change4WeeksKg", s.change4WeeksKg.map { rounded($0, 2) }),
                ("bmi", s.bmi.map { rounded($0.value, 1) }),
                ("goalKg", s.goalKg.map { rounded($0, 2) }),
                ("formulaExpenditureKcal", input.formulaKcalPerDay.map { rounded($0, 0) }),
            ]
            var learned: Double?
            if case let .learned(kcal, _, _) = input.expenditure { learned = rounded(kcal, 0) }
            values.append(("learnedExpenditureKcal", learned))
            let b = input.bodyComposition
            values += [
                ("bodyFatTrendPercent", b.map { rounded($0.trend.fatPercent, 2) }),
                ("bodyFatWeeklyPoints", b?.weeklyFatPercent.map { rounded($0, 3) }),
                ("fatMassTrendKg", b.map { rounded($0.trend.fatMassKg, 2) }),
                ("fatMassWeeklyKg", b?.weeklyFatMassKg.map { rounded($0, 3) }),
                ("leanMassTrendKg", b.map { rounded($0.trend.leanMassKg, 2) }),
                ("leanMassWeeklyKg", b?.weeklyLeanMassKg.map { rounded($0, 3) }),
            ]
            var goalDate: String?
            var goalStatus: String?
            switch s.goal {
            case .reaches(let day)?: goalStatus = "approaching"; goalDate = day.description
            case .maintaining?: goalStatus = "maintaining"
            case .beyondHorizon?: goalStatus = "beyondThreeYears"
            case .notApproaching?: goalStatus = "notApproaching"
            case nil: break
            }
            texts = [("asOf", s.asOf.description), ("bmiCategory", s.bmi?.category.rawValue),
                     ("goalStatus", goalStatus), ("goalDate", goalDate), ("bodyCompositionAsOf", b?.asOf.description)]
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in values { try c.encode(value, forKey: AnyKey(key)) }
            for (key, value) in texts { try c.encode(value, forKey: AnyKey(key)) }
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

private func rounded(_ value: Double, _ decimals: Int) -> Double {
    let scale = pow(10, Double(decimals))
    return (value * scale).rounded() / scale
}
