import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// What `hmon trend` prints: the trend's summary as lines a person reads, in their units.
public enum TrendText {
    /// What the command gathered, ready to be put into words.
    public struct Input: Sendable {
        public var summary: TrendSummary?
        public var expenditure: LearnedExpenditure.Estimate
        /// BMR + active energy, mean over the same days, kcal per day; nil when the profile lacks what the BMR needs.
        public var formulaKcalPerDay: Double?
        /// Body fat, fat mass and lean mass smoothed; nil without a day that has both body fat and a weigh-in.
        public var bodyComposition: BodyCompositionSummary?
        public var massUnit: MassUnit
        public var energyUnit: EnergyUnit

        public init(summary: TrendSummary?, expenditure: LearnedExpenditure.Estimate, formulaKcalPerDay: Double?,
                    bodyComposition: BodyCompositionSummary? = nil, massUnit: MassUnit, energyUnit: EnergyUnit) {
            self.summary = summary
            self.expenditure = expenditure
            self.formulaKcalPerDay = formulaKcalPerDay
            self.bodyComposition = bodyComposition
            self.massUnit = massUnit
            self.energyUnit = energyUnit
        }

        public init(_ report: WeightTrendReport, bodyComposition: BodyCompositionSummary? = nil) {
            self.init(summary: report.summary, expenditure: report.expenditure, formulaKcalPerDay: report.formulaKcalPerDay,
                      bodyComposition: bodyComposition, massUnit: report.profile.massUnit, energyUnit: report.profile.energyUnit)
        }
    }

    public static func lines(_ input: Input) -> [String] {
        guard let s = input.summary else {
            return ["No weigh-ins yet: add one with `hmon add weight KG`, or import a scale's history with `hmon import`."]
        }
        // Every figure as the dashboard writes it (`QuantityText`): 153.0 lb, −0.99 lb/week, 1,721 kJ.
        let quantities = QuantityText(massUnit: input.massUnit, energyUnit: input.energyUnit)
        func weight(_ kg: Double) -> String { quantities.text(kg, .mass) }
        func change(_ kg: Double?) -> String { kg.map { quantities.text($0, .mass, signed: true) } ?? "–" }
        func kcal(_ value: Double) -> String { "\(quantities.text(value, .energy))/day" }

        var rows: [(String, String)] = []
        // The day's weigh-ins averaged (the trend's input), said as such: it is not the newest weigh-in.
        rows.append(("Trend", "\(weight(s.trendKg)) on \(s.asOf) (that day's weigh-ins average \(weight(s.latestWeighInKg)))"))
        if let weekly = s.weeklyKg, let balance = s.dailyBalanceKcal(unit: input.massUnit) {
            let side = balance < 0 ? "a deficit of" : "a surplus of"
            let balanceText = abs(balance) < 0.5 ? "in balance" : "\(side) \(kcal(abs(balance)))"
            rows.append(("Weekly rate", "\(quantities.text(weekly, .massRate, signed: true)) (\(balanceText))"))
        } else {
            rows.append(("Weekly rate", "needs a second day of weigh-ins"))
        }
        rows.append(("Change", "1 week \(change(s.change1WeekKg)), 2 weeks \(change(s.change2WeeksKg)), 4 weeks \(change(s.change4WeeksKg))"))
        rows.append(("BMI", s.bmi.map { "\(quantities.number($0.value, .plain)) (\($0.category.rawValue))" }
                     ?? "needs a height (hmon profile set --height-cm CM)"))
        rows.append(("Goal", goal(s, weight: weight)))
        rows.append(("Expenditure", expenditure(input, kcal: kcal)))
        rows += bodyComposition(input.bodyComposition, quantities: quantities)
        return rows.map { "\(($0.0 + ":").padding(toLength: 13, withPad: " ", startingAt: 0))\($0.1)" }
    }

    static func goal(_ s: TrendSummary, weight: (Double) -> String) -> String {
        guard let goalKg = s.goalKg, let projection = s.goal else { return "not set (hmon profile set --goal-kg KG)" }
        switch projection {
        case .maintaining: return "\(weight(goalKg)): within \(weight(GoalProjection.maintainingKg)) of your goal: maintaining"
        case .reaches(let day): return "\(weight(goalKg)), reached around \(day) at the current rate"
        case .beyondHorizon: return "\(weight(goalKg)), more than 3 years away at the current rate"
        case .notApproaching: return "\(weight(goalKg)); the trend is not moving toward it"
        }
    }

    /// Fat share first, then the two masses; each with its weekly change, as the weight's.
    static func bodyComposition(_ b: BodyCompositionSummary?, quantities: QuantityText) -> [(String, String)] {
        guard let b else {
            return [("Body fat", "no day with both body fat and a weigh-in (a scale that measures it, or `hmon import`)")]
        }
        func rate(_ weekly: Double?, _ text: (Double) -> String) -> String {
            weekly.map { ", \(text($0))" } ?? ", needs a second day"
        }
        let fat = "\(quantities.text(b.trend.fatPercent, .percent)) on \(b.asOf)"
            + rate(b.weeklyFatPercent) { quantities.text($0, .percentRate, signed: true) }
        func mass(_ kg: Double, _ weekly: Double?) -> String {
            quantities.text(kg, .mass) + rate(weekly) { quantities.text($0, .massRate, signed: true) }
        }
        return [("Body fat", fat), ("Fat mass", mass(b.trend.fatMassKg, b.weeklyFatMassKg)),
                ("Lean mass", mass(b.trend.leanMassKg, b.weeklyLeanMassKg))]
    }

    static func expenditure(_ input: Input, kcal: (Double) -> String) -> String {
        let formula = input.formulaKcalPerDay.map { "formula (BMR + active) \(kcal($0))" }
            ?? "formula needs height, birth date and sex"
        switch input.expenditure {
        case let .learned(kcalPerDay, foodDays, weighInDays):
            return "\(kcal(kcalPerDay)) learned from \(foodDays) days of food logs and \(weighInDays) of weigh-ins; \(formula)"
        case let .needsMoreData(foodDays, weighInDays):
            return "needs \(LearnedExpenditure.minimumDays) days of food logs and weigh-ins in the last \(LearnedExpenditure.windowDays) "
                + "(has \(foodDays) and \(weighInDays)); \(formula)"
        }
    }
}
