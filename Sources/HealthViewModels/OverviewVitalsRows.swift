import Foundation
import HealthCore
import HealthModel

/// The overview's vital signs: a line for each one the window holds (a person without a cuff sees no
/// blood pressure line), each its latest day's figure, with the blood pressure's category by the 2017
/// ACC/AHA guideline and the others' 30-day mean; the line is the figure day by day.
enum OverviewVitalsRows {
    static func make(_ totals: [Day: DayTotals], days: [Day], text: QuantityText) -> [OverviewRow] {
        let others: [(ReadingKind, String)] = [(.oxygenSaturation, "SpO2"), (.respiratoryRate, "Breathing"),
                                               (.bodyTemperature, "Body temp."), (.skinTemperatureChange, "Skin temp.")]
        return ([bloodPressure(totals, days: days, text: text)]
            + others.map { latestWithMean($0.0, label: $0.1, totals, days: days, text: text) }).compactMap { $0 }
    }

    /// The last day's mean systolic/diastolic, and its category (one day's readings, as a cuff shows them).
    static func bloodPressure(_ totals: [Day: DayTotals], days: [Day], text: QuantityText) -> OverviewRow? {
        let values = days.map { totals[$0]?[.bloodPressureSystolic].mean }
        guard let lastIndex = values.lastIndex(where: { $0 != nil }), let systolic = values[lastIndex] else { return nil }
        let diastolic = totals[days[lastIndex]]?[.bloodPressureDiastolic].mean
        let figure = text.number(systolic, .pressure) + (diastolic.map { "/" + text.number($0, .pressure) } ?? "") + " mmHg"
        let category = BloodPressureCategory(systolic: systolic.rounded(), diastolic: diastolic?.rounded())
        return OverviewRow(label: "BP", figure: figure, detail: category.words + " (ACC/AHA)", values: values, topic: .vitalSign)
    }

    static func latestWithMean(_ kind: ReadingKind, label: String, _ totals: [Day: DayTotals], days: [Day], text: QuantityText) -> OverviewRow? {
        guard let quantity = kind.quantity else { return nil }
        let values = days.map { totals[$0]?[kind].mean }
        guard let last = values.last(where: { $0 != nil }) ?? nil else { return nil }
        let present = values.compactMap { $0 }
        let signed = quantity == .temperatureChange
        return OverviewRow(label: label, figure: text.text(last, quantity, signed: signed),
                           detail: "30-day mean " + text.text(present.reduce(0, +) / Double(present.count), quantity, signed: signed),
                           values: values, topic: .vitalSign)
    }
}
