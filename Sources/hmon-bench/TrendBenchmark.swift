import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// `hmon-bench trend`: the weight trend, its summary and learned expenditure over ten years of daily
/// weigh-ins (with one day in seven skipped, so the gap rule runs too). Pure computation: no store.
struct TrendBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "The weight trend over 10 years of daily weights (target: under 5 ms)."
    )

    @Option(help: "Years of daily weights.")
    var years = 10

    @Option(help: "Timed runs.")
    var iterations = 200

    func run() async throws {
        let first = Day(year: 2016, month: 1, day: 1)
        let count = years * 365
        // A slow drift with a daily wobble, deterministic so every run times the same work.
        var totals: [Day: DailyWeightTotal] = [:]
        for i in 0..<count where i % 7 != 3 {
            let kg = 80 - 0.002 * Double(i) + 0.6 * sin(Double(i) * 1.3)
            totals[first.adding(days: i)] = DailyWeightTotal(kg: kg, readings: 1)
        }
        let last = first.adding(days: count - 1)
        let intake = Dictionary(uniqueKeysWithValues: (0..<28).map { (last.adding(days: -$0), 2100.0) })
        print("\(totals.count) weigh-in days over \(count) days")
        var sink = 0.0
        let trend = await Measurement.run("trend, \(years) years of days", iterations: iterations) {
            sink += WeightTrendBuilder.days(dailyTotals: totals).last?.trendKg ?? 0
        }
        let summary = await Measurement.run("trend + summary + expenditure", iterations: iterations) {
            let days = WeightTrendBuilder.days(dailyTotals: totals)
            sink += TrendSummary(trend: days, heightCm: 180, goalKg: 70)?.weeklyKg ?? 0
            if case let .learned(kcal, _, _) = LearnedExpenditure.estimate(trend: days, intakeKcal: intake, through: last) { sink += kcal }
        }
        print(trend.line)
        print(summary.line)
        print("(checksum \(Int(rounding: sink, .towardZero) % 1000))")
    }
}
