import Foundation
import HealthModel
import HMonCommandLine

extension MCPTool {
    /// `hmon insights --json`'s document (Exist's shapes), beside `hmon insights`' text.
    static let insights = MCPTool(
        name: "insights",
        description: """
            Findings about the person's days (what stands out, what goes with what), medians per weekday and the \
            correlations between daily attributes (sleep, steps, weight, energy, HRV…). JSON as `hmon insights \
            --json` prints it, in the shapes Exist's API gives ({"averages", "correlations", \
            "expected_correlations", "insights"}); the text beside it is `hmon insights`'.
            """,
        arguments: ArgumentSchema([
            ArgumentSchema.integer("days", 2...3_650, default: CorrelationScan.windowDays,
                                   "Days to look for correlations over (medians take the last 60 of them at most)."),
        ]),
        answer: { arguments, reader in
            let now = reader.now()
            let report = try await reader.service.insightsReport(now: now, calendar: reader.calendar,
                                                                 windowDays: try arguments.integer("days"))
            return MCPAnswer(json: try InsightsJSON.data(report, now: now), text: InsightsText.lines(report).joined(separator: "\n"))
        })
}
