import Foundation
import HealthCore
import HMonCommandLine
import Logging
import MCP

/// `hmon mcp`: a Model Context Protocol server on standard input and output for one user's store, read only.
/// Standard output carries the protocol's messages and nothing else; what it logs goes to standard error.
/// It ends when the assistant closes its standard input.
public enum MCPServer {
    public static func run(service: any HealthService, version: String) async throws {
        let logger = Logger(label: "hmon.mcp") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let server = Server(
            name: "hmon", version: version,
            instructions: """
                A person's health records kept by hmon: weight trend, energy balance, heart rate variability, \
                sleep, insights and raw readings. Every tool only reads. Masses are in kg and energy in kcal in \
                the JSON unless a tool says otherwise; each tool's text gives the figures in the person's own units.
                """,
            capabilities: Server.Capabilities(resources: .init(subscribe: false, listChanged: false),
                                              tools: .init(listChanged: false)))
        await register(on: server, reader: MCPReader(service: service), logger: logger)
        let transport = AnsweringTransport(StdioTransport(logger: logger))
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        await transport.answeredAll()
        await server.stop()
    }

    static func register(on server: Server, reader: MCPReader, logger: Logger) async {
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: MCPTools.all.map(\.listed))
        }
        await server.withMethodHandler(CallTool.self) { call in
            guard let tool = MCPTools.named(call.name) else {
                throw MCPError.invalidParams("no tool \(call.name): the tools are \(MCPTools.all.map(\.name).joined(separator: ", "))")
            }
            return await answer(tool, call.arguments, reader, logger: logger)
        }
        await server.withMethodHandler(ListResources.self) { _ in
            ListResources.Result(resources: MCPResources.listed)
        }
        await server.withMethodHandler(ReadResource.self) { read in
            try await MCPResources.read(read.uri, reader)
        }
    }

    /// The tool's answer, or the reason it gave none as the tool's error: a bad argument or a store that
    /// cannot be read is told to the assistant, which may try again, and the server goes on.
    static func answer(_ tool: MCPTool, _ arguments: [String: Value]?, _ reader: MCPReader, logger: Logger) async -> CallTool.Result {
        do {
            let answer = try await tool.answer(try ToolArguments(arguments, schema: tool.arguments), reader)
            var content: [Tool.Content] = [text(answer.jsonText)]
            if let words = answer.text { content.append(text(words)) }
            let structured: Value? = try answer.structured()
            return CallTool.Result(content: content, structuredContent: structured)
        } catch let refusal as ToolRefusal {
            return CallTool.Result(content: [text(refusal.description)], isError: true)
        } catch {
            logger.warning("\(tool.name) failed: \(error)")
            return CallTool.Result(content: [text("\(tool.name) could not be answered: \(FailureText.message(for: error))")], isError: true)
        }
    }

    private static func text(_ words: String) -> Tool.Content {
        .text(text: words, annotations: nil, _meta: nil)
    }
}
