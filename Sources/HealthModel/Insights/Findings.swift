import Foundation
import CheckedNumbers

/// Writes the findings from the daily attributes, most pressing first: today's, then yesterday's, then
/// the week's, then the month's. Pure: today and the units come in.
public enum Findings {
    /// The sizes the findings look at.
    static let recordMonths = [12, 6, 3, 1]
    static let minimumStreak = 5
    static let balanceDays = 28
    /// A weekday effect is worth a sentence from this share of the median day.
    static let weekdayShare = 0.1

    public static func all(_ daily: DailyAttributes, averages: [AttributeAverages], trend: [TrendDay],
                           bodyComposition: [BodyCompositionDay] = [], today: Day, profile: Profile) -> [Finding] {
        var findings: [Finding] = []
        findings += records(daily, today: today, profile: profile)
        findings += streaks(daily, today: today)
        if let week = trendWeek(trend, today: today, profile: profile) { findings.append(week) }
        if let week = compositionWeek(bodyComposition, today: today, profile: profile) { findings.append(week) }
        findings += weekdayEffects(averages, profile: profile)
        if let balance = balance(daily, trend: trend, today: today, profile: profile) { findings.append(balance) }
        return findings.sorted { ($0.period, -$0.weight) < ($1.period, -$1.weight) }
    }

    // MARK: Records

    /// "Lowest weight in 6 months", "most steps in 3 months": the latest day (today, else yesterday)
    /// against the longest of 12, 6, 3 or 1 months it beats, if the earlier days have enough values.
    static func records(_ daily: DailyAttributes, today: Day, profile: Profile) -> [Finding] {
        let watched: [(InsightAttribute, lowest: Bool)] = [(.weight, true), (.steps, false), (.activeEnergy, false)]
        var result: [Finding] = []
        for (attribute, lowest) in watched {
            // Today's sums are still growing; only weight (an average of whole weigh-ins) may be today's.
            let candidates = attribute == .weight ? [today, today.adding(days: -1)] : [today.adding(days: -1)]
            guard let day = candidates.first(where: { isOwn(attribute, daily, $0) }),
                  let value = daily.value(attribute, on: day) else { continue }
            for months in recordMonths {
                var earlier: [Double] = []
                for ordinal in (day.ordinal - months * 30)..<day.ordinal {
                    let d = Day(ordinal: ordinal)
                    if isOwn(attribute, daily, d), let v = daily.value(attribute, on: d) { earlier.append(v) }
                }
                guard earlier.count >= max(7, months * 8) else { continue }
                let beats = lowest ? value < earlier.min()! : value > earlier.max()!
                guard beats else { continue }
                let what = months == 12 ? "a year" : months == 1 ? "a month" : "\(months) months"
                let word = lowest ? "Lowest" : "Most"
                let text = "\(word) \(attribute.label.lowercased()) in \(what): \(Format.valueText(value, attribute, profile))"
                result.append(Finding(kind: .record, period: day == today ? .today : .day, attribute: attribute, date: day,
                                      text: text, weight: Double(months)))
                break
            }
        }
        return result
    }

    /// Whether the day's value is its own (a weigh-in, not a carried weight).
    private static func isOwn(_ attribute: InsightAttribute, _ daily: DailyAttributes, _ day: Day) -> Bool {
        attribute == .weight ? (daily.value(.weighIns, on: day) ?? 0) > 0 : daily.value(attribute, on: day) != nil
    }

    // MARK: Streaks

    /// "Weighed in 12 days in a row", "logged food 9 days in a row": a run ending today or yesterday.
    static func streaks(_ daily: DailyAttributes, today: Day) -> [Finding] {
        let watched: [(InsightAttribute, String)] = [(.weighIns, "Weighed in"), (.energy, "Logged food")]
        var result: [Finding] = []
        for (attribute, words) in watched {
            func has(_ day: Day) -> Bool {
                attribute == .weighIns ? (daily.value(.weighIns, on: day) ?? 0) > 0 : daily.value(attribute, on: day) != nil
            }
            let end = has(today) ? today : today.adding(days: -1)
            var length = 0
            var ordinal = end.ordinal
            while ordinal >= daily.days.lowerBound.ordinal && has(Day(ordinal: ordinal)) {
                length += 1
                ordinal -= 1
            }
            guard length >= minimumStreak else { continue }
            result.append(Finding(kind: .streak, period: end == today ? .today : .day, attribute: attribute, date: end,
                                  text: "\(words) \(length) days in a row", weight: Double(length)))
        }
        return result
    }

    // MARK: The week's trend

    /// "Your trend weight is going down 0.40 kg/week": the weekly rate the Weights screen and `hmon trend`
    /// show (`WeightRate.weeklyKg`), in their words, so the two never seem to disagree.
    static func trendWeek(_ trend: [TrendDay], today: Day, profile: Profile) -> Finding? {
        guard let last = trend.last, last.day.days(to: today) <= 7,
              let before = trend.last(where: { $0.day <= last.day.adding(days: -7) }),
              before.day.days(to: last.day) == 7, let weekly = WeightRate.weeklyKg(trend) else { return nil }
        let quantities = QuantityText(profile)
        let shown = quantities.shownValue(weekly, .massRate)
        let text = shown == 0 ? "Your trend weight is holding steady (0.00 \(quantities.unit(.massRate)))"
            : "Your trend weight is going \(shown < 0 ? "down" : "up") \(quantities.text(abs(weekly), .massRate))"
        return Finding(kind: .trendWeek, period: .week, attribute: .weight, date: last.day, text: text, weight: abs(weekly))
    }

    /// "Your body fat is going down 0.23 pt/week, lean mass up 0.14 kg/week": the weekly
    /// changes `hmon trend` and the Weights screen show (`BodyCompositionSummary`), under the weight's rule
    /// of a trend that reaches into the last week and a week back from there.
    static func compositionWeek(_ trend: [BodyCompositionDay], today: Day, profile: Profile) -> Finding? {
        // One entry per day, so eight entries reach a week back from the last.
        guard let last = trend.last, last.day.days(to: today) <= 7, trend.count > 7,
              let summary = BodyCompositionSummary(trend: trend),
              let fat = summary.weeklyFatPercent, let lean = summary.weeklyLeanMassKg else { return nil }
        let quantities = QuantityText(profile)
        /// "down 0.23 pt/week"; nil when it shows as zero.
        func change(_ weekly: Double, _ kind: QuantityKind) -> String? {
            let shown = quantities.shownValue(weekly, kind)
            return shown == 0 ? nil : "\(shown < 0 ? "down" : "up") \(quantities.text(abs(weekly), kind))"
        }
        // Short enough for one line of the Insights screen at 80 columns.
        let fatText = change(fat, .percentRate).map { "going \($0)" } ?? "holding steady"
        let text = "Your body fat is \(fatText), lean mass \(change(lean, .massRate) ?? "holding steady")"
        return Finding(kind: .trendWeek, period: .week, attribute: .bodyFat, date: last.day, text: text, weight: abs(fat))
    }

    // MARK: Weekday effects

    /// "On Saturdays you eat 420 kcal more than on your median day": the weekday whose median is
    /// furthest from the overall median, when it is at least a tenth of it and the weekday has 4 days.
    static func weekdayEffects(_ averages: [AttributeAverages], profile: Profile) -> [Finding] {
        let watched: [InsightAttribute: (more: String, less: String)] = [
            .energy: ("you eat", "you eat"), .steps: ("you walk", "you walk"), .activeEnergy: ("you burn", "you burn"),
        ]
        var result: [Finding] = []
        for average in averages {
            guard let verbs = watched[average.attribute], average.overall > 0 else { continue }
            var best: (index: Int, difference: Double)?
            for (i, median) in average.weekdays.enumerated() {
                guard let median, average.weekdayCounts[i] >= 4 else { continue }
                let difference = median - average.overall
                if abs(difference) > abs(best?.difference ?? 0) { best = (i, difference) }
            }
            guard let best, abs(best.difference) >= weekdayShare * average.overall else { continue }
            let dayName = AttributeAverages.weekdayNames[best.index].capitalized + "s"
            let amount = Format.amount(abs(best.difference), average.attribute, profile)
            let text = "On \(dayName) \(best.difference > 0 ? verbs.more : verbs.less) \(amount) "
                + "\(best.difference > 0 ? "more" : "less") than on your median day"
            result.append(Finding(kind: .weekday, period: .month, attribute: average.attribute, date: average.date,
                                  text: text, weight: abs(best.difference) / average.overall))
        }
        return result
    }

    // MARK: Energy balance and trend

    /// Whether the logged energy balance and the weight trend tell the same story over the last 28
    /// complete days: the mean net energy of the days with food logged, against the trend's change at
    /// 7,700 kcal per kg. They agree when both are within 150 kcal a day of each other or have the same sign.
    static func balance(_ daily: DailyAttributes, trend: [TrendDay], today: Day, profile: Profile) -> Finding? {
        let end = today.adding(days: -1)
        let start = end.adding(days: -(balanceDays - 1))
        let nets = (start.ordinal...end.ordinal).compactMap { daily.value(.netEnergy, on: Day(ordinal: $0)) }
        guard nets.count >= balanceDays / 2,
              let last = trend.last(where: { $0.day <= end }), let first = trend.first(where: { $0.day >= start }),
              first.day.days(to: last.day) >= 14 else { return nil }
        let logged = nets.reduce(0, +) / Double(nets.count)
        let fromTrend = (last.trendKg - first.trendKg) * 7_700 / Double(first.day.days(to: last.day))
        let agree = abs(logged - fromTrend) <= 150 || (logged < 0) == (fromTrend < 0)
        let loggedText = Format.signedEnergy(logged, profile), trendText = Format.signedEnergy(fromTrend, profile)
        let text = agree
            ? "Your logged energy balance (\(loggedText) a day) and your weight trend (\(trendText) a day) agree over 4 weeks"
            : "Your logged energy balance (\(loggedText) a day) and your weight trend (\(trendText) a day) disagree over 4 weeks: "
                + "some meals may go unlogged, or the activity figures run high"
        return Finding(kind: .balance, period: .month, attribute: .netEnergy, date: end, text: text,
                       weight: agree ? 0.5 : 1 + abs(logged - fromTrend) / 1_000)
    }
}

/// Numbers in findings' sentences, in the person's units, written as everywhere else (`QuantityText`).
enum Format {
    static func mass(_ kg: Double, _ profile: Profile) -> String { QuantityText(profile).text(kg, .mass) }

    static func energy(_ kcal: Double, _ profile: Profile) -> String { QuantityText(profile).text(kcal, .energy) }

    static func signedEnergy(_ kcal: Double, _ profile: Profile) -> String {
        QuantityText(profile).text(kcal, .energy, signed: true)
    }

    static func amount(_ value: Double, _ attribute: InsightAttribute, _ profile: Profile) -> String {
        valueText(value, attribute, profile)
    }

    static func valueText(_ value: Double, _ attribute: InsightAttribute, _ profile: Profile) -> String {
        let quantities = QuantityText(profile)
        switch attribute.quantityKind {
        case let kind?: return quantities.text(value, kind)
        case nil: return quantities.number(value, .plain) + (attribute.unit.isEmpty ? "" : " \(attribute.unit)")
        }
    }
}
