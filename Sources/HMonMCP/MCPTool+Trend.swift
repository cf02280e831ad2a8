import Foundation
import HMonCommandLine

extension MCPTool {
    /// `hmon trend --json`'s document, made by the same loader: the tool and the command give one figure.
    static let trend = MCPTool(
        name: "trend",
        description: """
            The weight trend: the smoothed weight, its weekly rate, BMI, the goal and when it is reached, the \
            expenditure learned from weigh-ins and food, and body composition. JSON as `hmon trend --json` prints \
            it ({"summary": {…}, "days": [{"date", "weight", "trend", …}]}, oldest day first), masses in kg and \
            energy in kcal; the text beside it is `hmon trend`'s, in the person's own units.
            """,
        arguments: ArgumentSchema([
            ArgumentSchema.integer("days", 1...3_650, default: 365, "Days of weigh-ins to look back over."),
        ]),
        answer: { arguments, reader in
            let figures = try await TrendFigures.load(reader.service, now: reader.now(), calendar: reader.calendar,
                                                      lookbackDays: try arguments.integer("days"))
            return MCPAnswer(json: try figures.json(), text: figures.lines.joined(separator: "\n"))
        })
}
