import Foundation
import HealthCore
import HealthModel

/// One figure of the weights screen's summary line, written out, with whether it is welcome news.
public struct SummaryItem: Sendable, Equatable {
    public var text: String
    /// true: good news (toward the goal, or a loss without one); false: bad; nil: neither.
    public var isGood: Bool?
    public var isBold: Bool
    /// The goal and its date: the view may give it a row of its own where the line has no room for it.
    public var isGoal: Bool

    public init(_ text: String, isGood: Bool? = nil, isBold: Bool = false, isGoal: Bool = false) {
        self.text = text
        self.isGood = isGood
        self.isBold = isBold
        self.isGoal = isGoal
    }
}

/// The summary line, most important first: trend weight, weekly rate, implied balance, BMI, goal and
/// its projected date, then body fat and lean mass. The view shows as many as fit.
enum TrendSummaryItems {
    static func items(_ s: TrendSummary, unit: MassUnit, energy: EnergyUnit, calendar: Calendar) -> [SummaryItem] {
        let formats = Formats(calendar: calendar)
        var items = [SummaryItem("trend \(Formats.oneDecimal(unit.fromKg(s.trendKg))) \(unit.rawValue)", isBold: true)]
        // Toward the goal is good; with no goal, a loss is (as the table's arrows have it).
        let wanted: Double = s.goalKg.map { $0 - s.trendKg } ?? -1
        if let weekly = s.weeklyKg, let balance = s.dailyBalanceKcal(unit: unit) {
            let rate = (unit.fromKg(weekly) * 100).rounded() / 100
            let good: Bool? = rate == 0 ? nil : (rate < 0) == (wanted < 0)
            let arrow = rate > 0 ? "▲" : rate < 0 ? "▼" : "="
            items.append(SummaryItem("\(arrow) \(CNumberText.fixed(abs(rate), decimals: 2)) \(unit.rawValue)/week", isGood: good))
            items.append(SummaryItem("\(Formats.signedWhole(energy.fromKcal(balance))) \(energy.rawValue)/day", isGood: good))
        } else {
            items.append(SummaryItem("rate after a second day"))
        }
        if let bmi = s.bmi {
            items.append(SummaryItem("BMI \(Formats.oneDecimal(bmi.value)) \(bmi.category.rawValue)"))
        }
        if let goalKg = s.goalKg, let goal = s.goal {
            let target = "goal \(Formats.oneDecimal(unit.fromKg(goalKg))) \(unit.rawValue)"
            switch goal {
            case .maintaining:
                let band = QuantityText(massUnit: unit).text(GoalProjection.maintainingKg, .mass)
                items.append(SummaryItem("within \(band) of your goal: maintaining", isGood: true, isGoal: true))
            case .reaches(let day): items.append(SummaryItem("\(target) by \(formats.longDay(day))", isGood: true, isGoal: true))
            case .beyondHorizon: items.append(SummaryItem("\(target): over 3 years away", isGoal: true))
            case .notApproaching: items.append(SummaryItem("\(target): not moving toward it", isGood: false, isGoal: true))
            }
        }
        return items
    }

    /// Body fat and lean mass trends with their weekly change: less fat is good news, more lean mass too.
    static func items(_ b: BodyCompositionSummary, unit: MassUnit) -> [SummaryItem] {
        let quantities = QuantityText(massUnit: unit)
        func item(_ trend: String, weekly: Double?, _ kind: QuantityKind, goodWhenUp: Bool) -> SummaryItem {
            guard let weekly else { return SummaryItem(trend) }
            let shown = quantities.shownValue(weekly, kind)
            let arrow = shown > 0 ? "▲" : shown < 0 ? "▼" : "="
            return SummaryItem("\(trend) \(arrow) \(quantities.text(abs(weekly), kind))",
                               isGood: shown == 0 ? nil : (shown > 0) == goodWhenUp)
        }
        return [
            item("body fat \(quantities.text(b.trend.fatPercent, .percent))", weekly: b.weeklyFatPercent, .percentRate, goodWhenUp: false),
            item("lean \(quantities.text(b.trend.leanMassKg, .mass))", weekly: b.weeklyLeanMassKg, .massRate, goodWhenUp: true),
        ]
    }
}
