import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon trend`: the smoothed weight, its weekly rate, the goal, learned expenditure and body composition, as text or JSON.
struct TrendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "Show the weight trend: smoothed weight, weekly rate, BMI, goal, learned expenditure and body composition."
    )

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print {\"summary\": {…}, \"days\": [{\"date\", \"weight\", \"trend\", \"fatPercentTrend\", …}…]} in kg and kcal, oldest day first.")
    var json = false

    @Option(help: ArgumentHelp("Days of weigh-ins to look back over.", valueName: "days"))
    var days = 365

    func validate() throws {
        if days < 1 { throw ValidationError("--days must be at least 1") }
    }

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readOnly)
        let report = try await opened.service.weightTrendReport(now: Date(), calendar: Calendar.current, lookbackDays: days)
        let composition = try await opened.service.bodyCompositionTrend(
            weighIns: report.days.compactMap { day in day.weightKg.map { (day.day, $0) } }, calendar: Calendar.current)
        let input = TrendText.Input(report, bodyComposition: BodyCompositionSummary(trend: composition))
        if json {
            let data = try TrendJSON.data(input, days: report.days, bodyComposition: composition)
            print(String(decoding: data, as: UTF8.self))
        } else {
            printEscaped(TrendText.lines(input).joined(separator: "\n"))
        }
    }
}
