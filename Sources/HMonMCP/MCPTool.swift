import Foundation
import HealthCore
import MCP

/// One read-only tool of `hmon mcp`: its name, what it tells the assistant, the JSON schema of its arguments,
/// and how it answers. Every answer is one JSON document from a producer the command line or the server
/// already has, so a figure reads the same from `hmon trend --json`, a view and the assistant.
struct MCPTool: Sendable {
    var name: String
    var description: String
    /// The JSON schema of the arguments: an object whose properties each say their type, range and default.
    var arguments: ArgumentSchema
    var answer: @Sendable (ToolArguments, MCPReader) async throws -> MCPAnswer

    var listed: Tool {
        Tool(name: name, description: description, inputSchema: arguments.schema,
             annotations: Tool.Annotations(readOnlyHint: true, openWorldHint: false))
    }
}

/// What a tool or a resource answers: the JSON document (as structured content and as its text), and, where
/// the command line has words for it, the same figures as a person reads them, in their own units.
struct MCPAnswer: Sendable {
    var json: Data
    var text: String?

    init(json: Data, text: String? = nil) {
        self.json = json
        self.text = text
    }

    /// The document as the protocol's structured value (numbers, strings, arrays, objects).
    func structured() throws -> Value {
        try JSONDecoder().decode(Value.self, from: json)
    }

    var jsonText: String { String(decoding: json, as: UTF8.self) }
}

/// The store a tool reads, for the one user `hmon mcp` was started for, and the clock and calendar that
/// say what "today" is: the command line's own (`Date()`, the local zone), read at each call.
struct MCPReader: Sendable {
    var service: any HealthService
    var now: @Sendable () -> Date = { Date() }
    var calendar: Calendar = .current
}
