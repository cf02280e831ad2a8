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
        let figures = try await TrendFigures.load(opened.service, now: Date(), calendar: Calendar.current, lookbackDays: days)
        if json {
            print(String(decoding: try figures.json(), as: UTF8.self))
        } else {
            printEscaped(figures.lines.joined(separator: "\n"))
        }
    }
}
