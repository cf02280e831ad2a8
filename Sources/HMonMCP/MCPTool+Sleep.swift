import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

extension MCPTool {
    /// `hmon sleep --json`'s document, made by the same report: the tool, the command, the `sleep` view and
    /// the Sleep screen give one figure.
    static let sleep = MCPTool(
        name: "sleep",
        description: """
            The nights of the last days, newest first, as `hmon sleep --json` prints them: each night's bed and \
            wake times (ms since 1970), time asleep and in bed, efficiency, latency, wake after sleep onset, \
            midpoint and stages (minutes) with the device it came from; naps apart; the Sleep Regularity Index \
            over 7 and 30 days, sleep debt and the spread of bed and wake times. JSON {"nights": [{"day", \
            "bedMs", "wakeMs", "asleep", …}], "regularity7", "regularity30", "debtMinutes", …}; the text beside \
            it is `hmon sleep`'s.
            """,
        arguments: ArgumentSchema([
            ArgumentSchema.integer("days", 1...SleepReportAsk.maxDays, default: 7, "Days of nights to list, ending today."),
        ]),
        answer: { arguments, reader in
            let calendar = reader.calendar
            let ask = SleepReportAsk(through: Day(reader.now(), in: calendar), days: try arguments.integer("days"), calendar: calendar)
            let report = try await reader.service.sleepReport(ask)
            return MCPAnswer(json: try SleepText.json(report), text: SleepText.lines(report, calendar: calendar).joined(separator: "\n"))
        })
}
