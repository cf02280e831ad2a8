import Foundation
import MCP

extension MCPTool {
    /// Today at a glance, put together from the other tools' own answers (no figure of its own).
    static let overview = MCPTool(
        name: "overview",
        description: """
            Today at a glance, from the other tools' answers: {"trend": the trend tool's summary (kg, kcal), \
            "energyToday": today's entry of the energy tool (kcal), "hrv": the hrv tool's answer (ms), \
            "lastNight": the newest night of the sleep tool over the last two days (minutes) or null}. The text \
            beside it is each tool's, in the person's own units.
            """,
        arguments: ArgumentSchema(),
        answer: { _, reader in
            func ask(_ tool: MCPTool) async throws -> (value: Value, text: String?) {
                let answer = try await tool.answer(try ToolArguments(tool.name == "sleep" ? ["days": 2] : nil, schema: tool.arguments), reader)
                return (try answer.structured(), answer.text)
            }
            let trend = try await ask(.trend), energy = try await ask(.energy), hrv = try await ask(.hrv), sleep = try await ask(.sleep)
            let document: Value = .object([
                "trend": trend.value.objectValue?["summary"] ?? .null,
                "energyToday": energy.value.objectValue?["days"]?.arrayValue?.first ?? .null,
                "hrv": hrv.value,
                "lastNight": sleep.value.objectValue?["nights"]?.arrayValue?.first ?? .null,
            ])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let text = [("Weight trend", trend.text), ("Energy today", energy.text), ("HRV", hrv.text), ("Sleep", sleep.text)]
                .map { "\($0.0):\n\($0.1 ?? "—")" }.joined(separator: "\n\n")
            return MCPAnswer(json: try encoder.encode(document), text: text)
        })
}
