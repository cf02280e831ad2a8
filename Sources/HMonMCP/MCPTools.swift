/// Every tool `hmon mcp` offers, in the order the assistant lists them. All of them only read.
enum MCPTools {
    static let all: [MCPTool] = [.overview, .trend, .energy, .hrv, .sleep, .insights, .readings]

    static func named(_ name: String) -> MCPTool? {
        all.first { $0.name == name }
    }
}
