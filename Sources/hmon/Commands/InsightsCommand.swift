import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon insights`: findings, weekday medians and correlations, as text or Exist-shaped JSON.
struct InsightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "Show findings, medians per weekday and the correlations between your daily attributes."
    )

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print {\"averages\": […], \"correlations\": […], \"insights\": […]} as Exist's API v2 gives them.")
    var json = false

    @Option(help: ArgumentHelp("Days to look for correlations over (medians take the last 60 of them at most).", valueName: "days"))
    var days = CorrelationScan.windowDays

    func validate() throws {
        if days < 2 || days > 3_650 { throw ValidationError("--days must be 2–3650") }
    }

    func run() async throws {
        let now = Date()
        // Read only: the per-day sums the insights keep in the store are a cache, kept by the dashboard and
        // `hmon serve`, and answered without it where the store may not be written.
        let service = try await StoreOpener(store).open(.readOnly).service
        let report = try await service.insightsReport(now: now, calendar: Calendar.current, windowDays: days)
        if json {
            print(String(decoding: try InsightsJSON.data(report, now: now), as: UTF8.self))
        } else {
            printEscaped(InsightsText.lines(report).joined(separator: "\n"))
        }
    }
}
