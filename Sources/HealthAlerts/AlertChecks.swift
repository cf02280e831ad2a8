import Foundation
import HealthModel

/// The rules' conditions over figures in hand: pure, so each is checked against hand-worked cases. Each
/// answers the finding when its condition holds, nil when it does not (or cannot yet be judged).
public enum AlertChecks {
    /// How recent the newest day a rule looks at must be: a rule does not fire on last month's data.
    public static let freshDays = 2

    /// HRV below the person's normal range: for a day D, the mean of ln RMSSD over D and the six days
    /// before it, against the normal range of the 60 days before that week (HRV4Training's baseline, as the
    /// HRV screen's colours; the week is left out so a low week cannot drag its own range down). Holds when
    /// that is below the range on each of the `days` most recent days with a measurement, the newest within
    /// `freshDays` of `today`.
    public static func hrvBelowNormal(days: Int, measurements: [(date: Date, rmssdMs: Double)], today: Day,
                                      calendar: Calendar) -> AlertFinding? {
        let valid = measurements.filter { $0.rmssdMs > 0 && $0.rmssdMs.isFinite }
        let measuredDays = Set(valid.map { Day($0.date, in: calendar) }).sorted(by: >)
        guard days >= 1, measuredDays.count >= days, let newest = measuredDays.first, newest.days(to: today) < freshDays else { return nil }
        var weekMeans: [Double] = []
        var range: HRVBaseline.Band?
        for day in measuredDays.prefix(days) {
            let weekStart = day.adding(days: -6).start(in: calendar)
            let weekEnd = day.adding(days: 1).start(in: calendar)
            let week = valid.filter { $0.date >= weekStart && $0.date < weekEnd }.map { log($0.rmssdMs) }
            guard let band = HRVBaseline.band(before: weekStart, history: valid), !week.isEmpty else { return nil }
            let mean = week.reduce(0, +) / Double(week.count)
            guard mean < band.lowLn else { return nil }
            weekMeans.append(mean)
            if range == nil { range = band }
        }
        guard let range, let latest = weekMeans.first else { return nil }
        return AlertFinding(
            title: "HRV below your normal range",
            message: "Your 7-day HRV has been below your normal range for \(days) day\(days == 1 ? "" : "s"): "
                + "RMSSD \(Self.ms(exp(latest))) ms against \(Self.ms(range.lowMs))–\(Self.ms(range.highMs)) ms "
                + "(your 60-day baseline). Often a sign of strain, illness coming on, or too little recovery.",
            tags: ["warning", "heart"])
    }

    /// Resting heart rate up: a day's value (the mean of its readings) above the mean of the 30 days before it
    /// by more than `bpm`, with at least `minimumBaselineDays` of those 30 days measured; holds on each of the
    /// `days` most recent days with a value, the newest within `freshDays` of `today`.
    public static func restingHeartRateAbove(bpm: Double, days: Int, daily: [Day: Double], today: Day) -> AlertFinding? {
        let measured = daily.keys.sorted(by: >)
        guard days >= 1, measured.count >= days, let newest = measured.first, newest.days(to: today) < freshDays else { return nil }
        var latest: (value: Double, baseline: Double)?
        for day in measured.prefix(days) {
            let before = (1...30).compactMap { daily[day.adding(days: -$0)] }
            guard before.count >= minimumBaselineDays, let value = daily[day] else { return nil }
            let baseline = before.reduce(0, +) / Double(before.count)
            guard value > baseline + bpm else { return nil }
            if latest == nil { latest = (value, baseline) }
        }
        guard let latest else { return nil }
        return AlertFinding(
            title: "Resting heart rate up",
            message: "Your resting heart rate has been more than \(Self.whole(bpm)) bpm above your 30-day mean for \(days) "
                + "day\(days == 1 ? "" : "s"): \(Self.whole(latest.value)) bpm against \(Self.whole(latest.baseline)) bpm.",
            tags: ["warning", "heartpulse"])
    }

    /// Days of the 30 before a day that must have a resting heart rate for a mean to compare with.
    public static let minimumBaselineDays = 14

    /// The weight goal reached: the newest trend weight (`trend`, oldest first) has reached `goalKg` from the
    /// side the trend started on (losing: at or under it; gaining: at or over it), the newest within
    /// `freshDays` of `today`.
    public static func weightGoalReached(goalKg: Double?, trend: [TrendDay], today: Day, text: QuantityText) -> AlertFinding? {
        guard let goalKg, let first = trend.first, let last = trend.last, last.day.days(to: today) < freshDays else { return nil }
        let reached = first.trendKg >= goalKg ? last.trendKg <= goalKg : last.trendKg >= goalKg
        guard reached, trend.count > 1 else { return nil }
        return AlertFinding(
            title: "Weight goal reached",
            message: "Your weight trend is \(text.text(last.trendKg, .mass)), at your goal of \(text.text(goalKg, .mass)) "
                + "(from \(text.text(first.trendKg, .mass)) on \(first.day)).",
            tags: ["tada"])
    }

    /// A link silent: no arrival on any of `links` (each its id, kind, and last arrival or, without one, when it
    /// was made) for `hours` before `now`. One finding names every silent link.
    public static func linkSilent(hours: Double, links: [(id: String, kind: String, since: Date)], now: Date) -> AlertFinding? {
        let silent = links.filter { now.timeIntervalSince($0.since) > hours * 3600 }
        guard !silent.isEmpty else { return nil }
        let names = silent.map { "\($0.kind) link \($0.id)" }.joined(separator: ", ")
        return AlertFinding(
            title: silent.count == 1 ? "A link has gone quiet" : "\(silent.count) links have gone quiet",
            message: "Nothing has arrived for more than \(Self.whole(hours)) hours on: \(names). Check the app on the phone "
                + "(its sync, its battery settings) or the scale.",
            tags: ["zzz"])
    }

    // Written with String(format:), never Int(_:): a stored figure out of Int's range must not trap.
    static func ms(_ value: Double) -> String { String(format: "%.0f", value) }
    static func whole(_ value: Double) -> String {
        value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
}
