import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon sleep`: each night's measures, the Sleep Regularity Index, debt and consistency, as text or JSON.
struct SleepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Show your nights: bed and wake times, asleep, efficiency, stages, regularity (SRI) and sleep debt."
    )

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print the sleep view's data: {\"nights\": [{\"day\", \"bedMs\", \"wakeMs\", \"asleep\", …}…], \"regularity7\", \"regularity30\", \"debtMinutes\", …}, minutes and ms since 1970, newest night first.")
    var json = false

    @Option(help: ArgumentHelp("Days of nights to list, ending today.", valueName: "days"))
    var days = 30

    func validate() throws {
        if days < 1 || days > SleepReportAsk.maxDays { throw ValidationError("--days must be 1–\(SleepReportAsk.maxDays)") }
    }

    func run() async throws {
        let calendar = Calendar.current
        let service = try await StoreOpener(store).open(.readOnly).service
        let report = try await service.sleepReport(SleepReportAsk(through: Day(Date(), in: calendar), days: days, calendar: calendar))
        if json {
            print(String(decoding: try SleepText.json(report), as: UTF8.self))
        } else {
            printEscaped(SleepText.lines(report, calendar: calendar).joined(separator: "\n"))
        }
    }
}
