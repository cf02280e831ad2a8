import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon sleep`: each night's measures, the Sleep Regularity Index, debt and consistency, as text or JSON.
struct SleepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Show your nights: bed and wake times, asleep, efficiency, stages, regularity (SRI) and sleep debt.",
        discussion: """
            A night belongs to the day it ends. From its stages where the device kept them, else from its session: \
            asleep and in bed (minutes); efficiency = asleep / in bed; latency = bed to the first minute asleep; \
            wake after sleep onset = minutes awake between the first and last minute asleep; midpoint = halfway \
            between falling asleep and the final waking. Regularity: the Sleep Regularity Index (Phillips et al. \
            2017, Sci Rep 7:3216), 200 · P(same sleep/wake state 24 h apart) − 100 on one-minute epochs, days noon \
            to noon, only pairs of days that both have a night; 100 is the same hours every day. Debt: the last 14 \
            nights' shortfall below your need (8 h, or `hmon profile set --sleep-need-hours`), the night k nights \
            before the last weighing (14 − k)/14. Consistency: the standard deviation of bed and wake times. A sleep \
            under 3 h in daytime is a nap, kept apart. Sources and worked examples: docs/methods.md.
            """
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
