import Foundation
import HealthModel

/// The weight trend and the insights of the signed-in user, computed by the model from what the service reads.
extension HealthService {
    /// The weight trend over the last `lookbackDays` days up to today, from every device of the user.
    /// The smoothing forgets its seed quickly (0.9⁶⁰ < 0.2 %), so a year's look-back gives today's trend
    /// as a look-back over all history would.
    ///
    /// Expenditure is learned over the 28 days before today: today's food log is still partial.
    public func weightTrendReport(now: Date, calendar: Calendar, lookbackDays: Int = 365) async throws -> WeightTrendReport {
        let profile = try await profile()
        let today = Day(now, in: calendar)
        let series = try await weightSeries(days: today.adding(days: -(lookbackDays - 1))...today, calendar: calendar)
        let days = WeightTrendBuilder.days(series: series)
        let yesterday = today.adding(days: -1)
        let window = yesterday.adding(days: -(LearnedExpenditure.windowDays - 1))...yesterday
        let energy = try await energySummaries(for: window, now: now, calendar: calendar)
        var intake: [Day: Double] = [:]
        for summary in energy where summary.consumed > 0 { intake[summary.day] = summary.consumed }
        let formulaDays = energy.compactMap { s in s.resting.map { $0 + s.active } }
        return WeightTrendReport(
            profile: profile, days: days,
            summary: TrendSummary(trend: days, heightCm: profile.heightCm, goalKg: profile.goalKg),
            expenditure: LearnedExpenditure.estimate(trend: days, intakeKcal: intake, through: yesterday),
            formulaKcalPerDay: formulaDays.isEmpty ? nil : formulaDays.reduce(0, +) / Double(formulaDays.count))
    }
}

extension HealthService {
    /// The body composition trend over the days of `weighIns` (one averaged weight per weigh-in day, as
    /// the weight trend's days carry them): the body fat readings of those days, from every device.
    public func bodyCompositionTrend(weighIns: [(day: Day, kg: Double)], calendar: Calendar) async throws -> [BodyCompositionDay] {
        guard let first = weighIns.map(\.day).min(), let last = weighIns.map(\.day).max() else { return [] }
        let query = ReadingsQuery(from: first.start(in: calendar).millisecondsSince1970,
                                  to: last.adding(days: 1).start(in: calendar).millisecondsSince1970,
                                  field: Field.fatRatio, order: .asc)
        let fat = try await readings(query).compactMap { reading in
            reading.data[Field.fatRatio]?.number.map { (date: reading.date, percent: $0) }
        }
        return BodyCompositionTrendBuilder.days(
            BodyCompositionTrendBuilder.measurements(fatReadings: fat, weighIns: weighIns, calendar: calendar))
    }
}

extension HealthService {
    /// The insights as of `now`, over the last `windowDays` days.
    public func insightsReport(now: Date, calendar: Calendar, windowDays: Int = CorrelationScan.windowDays) async throws -> InsightsReport {
        let ask = InsightsScreenData.Ask(today: Day(now, in: calendar), calendar: calendar, windowDays: windowDays)
        return try await insightsScreen(ask).report(ask)
    }
}
