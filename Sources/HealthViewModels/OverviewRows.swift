import Foundation
import HealthCore
import HealthModel

/// The overview's lines made from what it read: pure, so a test fixes the day and the figures.
enum OverviewRows {
    static func make(_ profile: Profile, weights: WeightSeries, energy: [EnergySummary], totals: [Day: DayTotals],
                     first: Day, today: Day, calendar: Calendar) -> [OverviewRow] {
        let text = QuantityText(profile)
        let days = (0...first.days(to: today)).map { first.adding(days: $0) }
        func series(_ value: (Day) -> Double?) -> [Double?] { days.map(value) }
        return [
            weight(WeightTrendBuilder.days(series: weights), profile: profile, days: days, text: text),
            netEnergy(energy, days: days, today: today, text: text),
            hrv(totals, days: days, calendar: calendar),
            sleep(totals, days: days, today: today),
            OverviewRow(label: "Resting HR", figure: latest(series { totals[$0]?[.restingHeartRate].mean }).map { text.text($0, .heartRate) } ?? "—",
                        detail: mean(series { totals[$0]?[.restingHeartRate].mean }).map { "30-day mean " + text.number($0, .heartRate) }
                            ?? "import a watch's export: hmon import export.zip",
                        values: series { totals[$0]?[.restingHeartRate].mean }, topic: .restingHeartRate),
            steps(totals, days: days, today: today, text: text),
        ] + [readiness(totals, days: days, text: text)].compactMap { $0 }
            + OverviewVitalsRows.make(totals, days: days, text: text)
    }

    private static func latest(_ values: [Double?]) -> Double? { values.last { $0 != nil } ?? nil }

    private static func mean(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }
        return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
    }

    /// The trend (Hacker's Diet) and its weekly rate; the line is the trend's, day by day.
    static func weight(_ trend: [TrendDay], profile: Profile, days: [Day], text: QuantityText) -> OverviewRow {
        let byDay = Dictionary(trend.map { ($0.day, $0.trendKg) }, uniquingKeysWith: { _, last in last })
        let values = days.map { byDay[$0] }
        guard let summary = TrendSummary(trend: trend, heightCm: profile.heightCm, goalKg: profile.goalKg),
              values.contains(where: { $0 != nil }) else {
            return OverviewRow(label: "Weight", figure: "—", detail: "add a weigh-in on Weights (2): a", values: values, topic: .weight)
        }
        let rate = summary.weeklyKg.map { text.text($0, .massRate, signed: true) } ?? "rate after a week"
        return OverviewRow(label: "Weight", figure: text.text(summary.trendKg, .mass), detail: rate, values: values, topic: .weight)
    }

    /// Net energy (eaten − active − resting) of each day with food logged: today's so far and the last 7 days'.
    static func netEnergy(_ energy: [EnergySummary], days: [Day], today: Day, text: QuantityText) -> OverviewRow {
        let byDay = Dictionary(energy.map { ($0.day, $0) }, uniquingKeysWith: { _, last in last })
        let values: [Double?] = days.map { day in byDay[day].flatMap { $0.consumed > 0 ? $0.net : nil } }
        guard values.contains(where: { $0 != nil }) else {
            return OverviewRow(label: "Net energy", figure: "—", detail: "log food on Energy (3): a", values: values, topic: .energy)
        }
        let week = values.suffix(7).compactMap { $0 }
        let todayText = values.last.flatMap { $0 }.map { text.text($0, .energy, signed: true) + " today" } ?? "no food today"
        return OverviewRow(label: "Net energy", figure: todayText,
                           detail: text.textOfSum(week, .energy, signed: true) + " in 7 days", values: values, topic: .energy)
    }

    /// The day's RMSSD (SDNN when the window has none, as the insights choose), the last against the
    /// baseline of the 60 days before it (HRV4Training's band, from the days' means).
    static func hrv(_ totals: [Day: DayTotals], days: [Day], calendar: Calendar) -> OverviewRow {
        let useRMSSD = totals.values.contains { $0[.heartRateVariabilityFromBeats].count > 0 }
        let kind: ReadingKind = useRMSSD ? .heartRateVariabilityFromBeats : .heartRateVariability
        let values = days.map { totals[$0]?[kind].mean }
        guard let lastIndex = values.lastIndex(where: { $0 != nil }), let last = values[lastIndex] else {
            return OverviewRow(label: "HRV", figure: "—", detail: "measure on HRV (4): a, or import a watch", values: values, topic: .hrv)
        }
        let history = totals.compactMap { day, t in t[kind].mean.map { (date: day.start(in: calendar), rmssdMs: $0) } }
        let figure = Formats.oneDecimal(last) + " ms " + (useRMSSD ? "RMSSD" : "SDNN")
        guard let band = HRVBaseline.band(before: days[lastIndex].start(in: calendar), history: history) else {
            return OverviewRow(label: "HRV", figure: figure, detail: "building its baseline", values: values, topic: .hrv)
        }
        let place = last > band.highMs ? "above" : last < band.lowMs ? "below" : "within"
        return OverviewRow(label: "HRV", figure: figure,
                           detail: "\(place) \(Formats.oneDecimal(band.lowMs))–\(Formats.oneDecimal(band.highMs))", values: values, topic: .hrv)
    }

    /// Time asleep each night (on the day it ended); the last night with its deep and REM sleep.
    static func sleep(_ totals: [Day: DayTotals], days: [Day], today: Day) -> OverviewRow {
        let values = days.map { totals[$0]?[.sleep].mean }
        guard let lastIndex = values.lastIndex(where: { $0 != nil }), let last = values[lastIndex] else {
            return OverviewRow(label: "Sleep", figure: "—", detail: "import a watch's export: hmon import export.zip", values: values, topic: .sleep)
        }
        let t = totals[days[lastIndex]]
        let stages = [("deep", t?[.deepSleep].mean), ("REM", t?[.remSleep].mean)].compactMap { name, minutes in
            minutes.map { "\(name) \(Formats.hoursMinutes($0).replacingOccurrences(of: " h ", with: "h"))" }
        }
        let when = days[lastIndex] == today ? "last night" : "night to \(days[lastIndex])"
        return OverviewRow(label: "Sleep", figure: Formats.hoursMinutes(last),
                           detail: stages.isEmpty ? when : stages.joined(separator: " "), values: values, topic: .sleep)
    }

    /// A ring's readiness score (Oura's, as it gives it) and the mean of the last 7 scored days; only for
    /// someone whose window holds one, so the others see no line that none of their devices could fill.
    static func readiness(_ totals: [Day: DayTotals], days: [Day], text: QuantityText) -> OverviewRow? {
        let values = days.map { totals[$0]?[.readiness].mean }
        guard let lastIndex = values.lastIndex(where: { $0 != nil }), let last = values[lastIndex] else { return nil }
        let week = values[...lastIndex].compactMap { $0 }.suffix(7)
        return OverviewRow(label: "Readiness", figure: text.number(last, .score),
                           detail: "7-day mean " + text.number(week.reduce(0, +) / Double(week.count), .score), values: values, topic: .readiness)
    }

    /// Today's steps so far and the mean of the 7 days before.
    static func steps(_ totals: [Day: DayTotals], days: [Day], today: Day, text: QuantityText) -> OverviewRow {
        let values = days.map { totals[$0]?[.steps].total }
        guard values.contains(where: { $0 != nil }) else {
            return OverviewRow(label: "Steps", figure: "—", detail: "import a watch's export: hmon import export.zip", values: values, topic: .steps)
        }
        let before = values.dropLast().suffix(7).compactMap { $0 }
        let detail = before.isEmpty ? "today" : "7-day mean " + text.number(before.reduce(0, +) / Double(before.count), .steps)
        return OverviewRow(label: "Steps", figure: text.text(values.last.flatMap { $0 } ?? 0, .steps), detail: detail, values: values, topic: .steps)
    }
}
