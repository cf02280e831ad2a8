import MCP

/// The same views as resources, for assistants that read context rather than call tools: each one is a
/// tool's answer with its default arguments, as JSON.
enum MCPResources {
    struct Entry: Sendable {
        var uri: String
        var name: String
        var description: String
        var tool: MCPTool
    }

    static let all: [Entry] = [
        Entry(uri: "hmon://overview", name: "overview", description: "Today at a glance: the overview tool's answer.", tool: .overview),
        Entry(uri: "hmon://trend", name: "trend", description: "The weight trend over the last year: the trend tool's answer.", tool: .trend),
        Entry(uri: "hmon://energy/today", name: "energy-today", description: "Today's energy balance: the energy tool's answer for today.",
              tool: .energy),
        Entry(uri: "hmon://hrv", name: "hrv", description: "The HRV range and the newest measurement: the hrv tool's answer.", tool: .hrv),
        Entry(uri: "hmon://sleep", name: "sleep", description: "The last seven nights' sleep: the sleep tool's answer.", tool: .sleep),
        Entry(uri: "hmon://insights", name: "insights", description: "Findings, medians and correlations: the insights tool's answer.",
              tool: .insights),
    ]

    static var listed: [Resource] {
        all.map { Resource(name: $0.name, uri: $0.uri, description: $0.description, mimeType: "application/json") }
    }

    static func read(_ uri: String, _ reader: MCPReader) async throws -> ReadResource.Result {
        guard let entry = all.first(where: { $0.uri == uri }) else {
            // The protocol's "resource not found".
            throw MCPError.serverError(code: -32002, message: "no resource \(uri): the resources are \(all.map(\.uri).joined(separator: ", "))")
        }
        let answer = try await entry.tool.answer(try ToolArguments(nil, schema: entry.tool.arguments), reader)
        return ReadResource.Result(contents: [.text(answer.jsonText, uri: uri, mimeType: "application/json")])
    }
}
